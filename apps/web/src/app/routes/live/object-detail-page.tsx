import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageError, PageHeader, PageLoading } from '../../../components/page-state.tsx';
import { paths } from '../../../config/paths.ts';
import { useAthlete } from '../../../features/live/api.ts';
import { AthleteCard } from '../../../features/live/athlete-card.tsx';

/**
 * `…/ctx/{db}/generic/{path}/objectdetail/{token}`: an athlete through an opaque share token —
 * the athlete's public tracking key (random, unguessable). Teams are not modelled yet.
 */
export default function ObjectDetailPage() {
  const { t } = useTranslation('live');
  const { eventId = '', token } = useParams();
  const athlete = useAthlete(token);
  return (
    <>
      <PageHeader title={t('title')} crumbs={[[eventId, paths.eventHome(eventId)], [t('title')]]} />
      {athlete.isPending && <PageLoading />}
      {athlete.isError && <PageError error={athlete.error} />}
      {athlete.data && <AthleteCard card={athlete.data} />}
    </>
  );
}
