import { Chip } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageError, PageHeader, PageLoading } from '../../../components/page-state.tsx';
import { useTimeTrial } from '../../../features/live/api/get-time-trial.ts';
import { TimeTrialSections } from '../../../features/live/components/time-trial-sections.tsx';

/**
 * `/live/clm/{db}/{key}` — time-trial live ("contre-la-montre"), `key` being the race id: the hot
 * seat, the riders on course with their rank and gap at their last point and a predicted finish,
 * the latest finishers, the standings and the next starters. Live on every passing of the context.
 */
export default function ClmPage() {
  const { t } = useTranslation('live');
  const { db = '', key = '' } = useParams();
  const board = useTimeTrial(db, key);
  if (board.isPending) return <PageLoading />;
  if (board.isError)
    return (
      <>
        <PageHeader title={t('clm.title')} crumbs={[[t('clm.title')]]} />
        <PageError error={board.error} />
      </>
    );
  const b = board.data;
  return (
    <>
      <PageHeader
        title={`${t('clm.title')} — ${b.name}`}
        crumbs={[[t('clm.title')], [b.name]]}
        actions={<Chip color="error" label={t('clm.live')} />}
      />
      <TimeTrialSections board={b} fetchedAt={board.dataUpdatedAt} />
    </>
  );
}
