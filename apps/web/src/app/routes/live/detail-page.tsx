import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageError, PageHeader, PageLoading } from '../../../components/page-state.tsx';
import { paths } from '../../../config/paths.ts';
import { CertificateButton } from '../../../features/exports/components/certificate-button.tsx';
import { useAthleteByBib, useEventName } from '../../../features/live/api.ts';
import { AthleteCard } from '../../../features/live/athlete-card.tsx';
import { FollowButton } from '../../../features/live/follow-button.tsx';
import { runnerName } from '../../../lib/runner-name.ts';

/** `…/ctx/{db}/generic/{path}/detail/{id}`: a participant of context `db` by bib, live. */
export default function DetailPage() {
  const { t } = useTranslation('live');
  const { eventId = '', db, id } = useParams();
  const eventName = useEventName(eventId);
  const athlete = useAthleteByBib(db, id);
  return (
    <>
      <PageHeader
        title={t('detail', { bib: id })}
        documentTitle={[athlete.data && runnerName(athlete.data.athlete), t('detail', { bib: id }), eventName]
          .filter(Boolean)
          .join(' · ')}
        crumbs={[[eventName, paths.eventHome(eventId)], [t('detail', { bib: id })]]}
      />
      {athlete.isPending && <PageLoading />}
      {athlete.isError && <PageError error={athlete.error} />}
      {athlete.data && (
        <AthleteCard
          card={athlete.data}
          actions={
            <>
              <FollowButton card={athlete.data} />
              <CertificateButton
                trackingKey={athlete.data.athlete.trackingKey}
                status={athlete.data.status}
              />
            </>
          }
        />
      )}
    </>
  );
}
