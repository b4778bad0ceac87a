import { Button } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { PageError, PageHeader, PageLoading } from '../../../components/page-state.tsx';
import { paths } from '../../../config/paths.ts';
import { CertificateButton } from '../../../features/exports/components/certificate-button.tsx';
import { useAthlete, useEventName } from '../../../features/live/api.ts';
import { AthleteCard } from '../../../features/live/athlete-card.tsx';
import { FollowButton } from '../../../features/live/follow-button.tsx';
import { AthleteSearch } from './tracking-search-page.tsx';

/** `/tracking/{key}`, `/genericTracking/{key}`, `/events/{eventId}/tracking/{key?}`: one athlete, live. */
export default function TrackingPage() {
  const { t } = useTranslation('live');
  const { key, eventId } = useParams();
  const eventName = useEventName(eventId);
  const athlete = useAthlete(key);
  const crumbs: [string, string?][] = eventId
    ? [[eventName, paths.eventHome(eventId)], [t('title')]]
    : [[t('title')]];
  if (!key) {
    return (
      <>
        <PageHeader title={t('title')} crumbs={crumbs} />
        {eventId && <AthleteSearch eventId={eventId} />}
      </>
    );
  }
  return (
    <>
      <PageHeader title={t('title')} crumbs={crumbs} />
      {athlete.isPending && <PageLoading />}
      {athlete.isError && <PageError error={athlete.error} />}
      {athlete.data && (
        <AthleteCard
          card={athlete.data}
          actions={
            <>
              <FollowButton
                trackingKey={key}
                name={`${athlete.data.athlete.firstName} ${athlete.data.athlete.lastName}`}
              />
              <Button component={RouterLink} to="/genericTracking">
                {t('follow.title')}
              </Button>
              <CertificateButton trackingKey={key} status={athlete.data.status} />
            </>
          }
        />
      )}
    </>
  );
}
