import { Button } from '@mui/material';
import { lazy, Suspense, useDeferredValue } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { PageError, PageHeader, PageLoading } from '../../../components/page-state.tsx';
import { paths } from '../../../config/paths.ts';
import { CertificateButton } from '../../../features/exports/components/certificate-button.tsx';
import { useAthlete, useEventName } from '../../../features/live/api.ts';
import { AthleteCard } from '../../../features/live/athlete-card.tsx';
import { FollowButton } from '../../../features/live/follow-button.tsx';
import { AlertsButton } from '../../../features/runner/components/alerts-button.tsx';
import { useEndPrePaint } from '../../../lib/pre-paint.ts';
import { runnerName } from '../../../lib/runner-name.ts';

/**
 * The event's athlete search (`/events/{eventId}/tracking`, no key): a chunk of its own, out of the
 * card's first JavaScript (issue 19: 7 KB gzip of lists and search field the card never shows,
 * which makes room under the 200 KB budget for the card's pre-paint).
 */
const AthleteSearch = lazy(() =>
  import('./tracking-search-page.tsx').then((m) => ({ default: m.AthleteSearch })),
);

/** `/tracking/{key}`, `/genericTracking/{key}`, `/events/{eventId}/tracking/{key?}`: one athlete, live. */
export default function TrackingPage() {
  const { t } = useTranslation('live');
  const { key, eventId } = useParams();
  const eventName = useEventName(eventId);
  const athlete = useAthlete(key);
  // The card as drawn lags the answer by one render: its arrival and each live update render it as
  // a transition, in slices that give the main thread back (issue 28: Lighthouse TBT on a phone).
  const card = useDeferredValue(athlete.data);
  // The boot script's picture of this card (src/pre-paint/tracking-pre-paint.ts) goes once React's
  // card is painted beneath it (two frames), or at once when the card failed.
  const shown = !!card;
  const failed = athlete.isError && !shown;
  useEndPrePaint(shown, failed);
  const person = card && runnerName(card.athlete);
  const documentTitle = [person, eventId && eventName, t('title')].filter(Boolean).join(' · ');
  const crumbs: [string, string?][] = eventId
    ? [[eventName, paths.eventHome(eventId)], [t('title')]]
    : [[t('title')]];
  if (!key) {
    return (
      <>
        <PageHeader title={t('title')} documentTitle={documentTitle} crumbs={crumbs} />
        {eventId && (
          <Suspense fallback={<PageLoading />}>
            <AthleteSearch eventId={eventId} />
          </Suspense>
        )}
      </>
    );
  }
  return (
    <>
      <PageHeader title={t('title')} documentTitle={documentTitle} crumbs={crumbs} />
      {!card && !athlete.isError && <PageLoading />}
      {athlete.isError && <PageError error={athlete.error} />}
      {card && (
        <AthleteCard
          card={card}
          actions={
            <>
              <FollowButton card={card} />
              <AlertsButton card={card} />
              {/* From an event's card, the list keeps the event's navigation (issue 27). */}
              <Button component={RouterLink} to={paths.genericTracking(undefined, eventId ?? card.eventId)}>
                {t('follow.title')}
              </Button>
              <CertificateButton trackingKey={key} status={card.status} />
            </>
          }
        />
      )}
    </>
  );
}
