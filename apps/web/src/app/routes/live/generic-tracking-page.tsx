import { Alert, Box, Button, Link, Typography } from '@mui/material';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams, useSearchParams } from 'react-router';
import { PageError, PageHeader, PageLoading } from '../../../components/page-state.tsx';
import { paths } from '../../../config/paths.ts';
import { useAthlete, useEventName } from '../../../features/live/api.ts';
import { AthleteCard } from '../../../features/live/athlete-card.tsx';
import { FollowButton } from '../../../features/live/follow-button.tsx';
import { keysFromParam, useFollowed } from '../../../features/live/followed.ts';
import { useEndPrePaint } from '../../../lib/pre-paint.ts';
import { TopBar } from '../../layouts/top-bar.tsx';

/**
 * The athlete search shown under "you follow nobody yet": a chunk of its own, loaded beside the
 * page (issue 28: the page's first JavaScript, its message drawn without waiting for the search).
 */
const TrackingSearchPage = lazy(() => import('./tracking-search-page.tsx'));

function FollowedCard({ trackingKey }: { trackingKey: string }) {
  const athlete = useAthlete(trackingKey);
  if (athlete.isPending) return <PageLoading />;
  if (athlete.isError) return <PageError error={athlete.error} />;
  return <AthleteCard card={athlete.data} actions={<FollowButton card={athlete.data} />} />;
}

/**
 * `/genericTracking` and `/genericTracking/{keys}` (issue 7): several athletes followed at once,
 * each card live. Without a parameter, the athletes this browser follows (the Follow button of a
 * card); with one, the tracking keys it names, joined by commas — the group's share link.
 * `?event={eventId}` (a card's link to this list, issue 27): that event's athletes, with its
 * navigation — the side menu and the breadcrumbs through the event — as its tracking card has.
 */
export default function GenericTrackingPage() {
  const { t } = useTranslation('live');
  const { key } = useParams();
  const [params] = useSearchParams();
  const eventId = params.get('event') || undefined;
  const eventName = useEventName(eventId);
  const followed = useFollowed(eventId);
  const keys = key ? keysFromParam(key) : followed;
  const [copied, setCopied] = useState(false);
  // The boot script's picture of this page (src/pre-paint/followed-pre-paint.ts) goes once this
  // one is painted beneath it: its title and message are there from the first render.
  useEndPrePaint(true, false);
  const groupLink = `${window.location.origin}${window.location.pathname}#${paths.genericTracking(keys.join(','), eventId)}`;
  const crumbs: [string, string?][] = eventId
    ? [[eventName, paths.eventHome(eventId)], [t('title'), paths.tracking(eventId)], [t('follow.title')]]
    : [[t('follow.title')]];
  return (
    <>
      {/* `/genericTracking` is in the blank layout: the top bar gives a way home (issue 19) and
          the side menu (issue 27). */}
      {!key && <TopBar testId="page-top-bar" menu />}
      <Box sx={{ p: { xs: 1.5, sm: 3 }, maxWidth: 1200, mx: 'auto' }}>
        <PageHeader
          title={t('follow.title')}
          documentTitle={[
            key ? `${t('follow.title')} (${keys.length})` : t('follow.title'),
            eventId && eventName,
          ]
            .filter(Boolean)
            .join(' · ')}
          crumbs={crumbs}
          actions={
            keys.length > 1 && (
              <Button
                variant="outlined"
                onClick={async () => {
                  await navigator.clipboard?.writeText(groupLink).catch(() => undefined);
                  setCopied(true);
                }}
              >
                {copied ? t('shared') : t('follow.shareGroup')}
              </Button>
            )
          }
        />
        {keys.length === 0 ? (
          <>
            <Alert severity="info" sx={{ mb: 2 }}>
              {t('follow.none')}
            </Alert>
            <Suspense fallback={null}>
              <TrackingSearchPage embedded />
            </Suspense>
          </>
        ) : (
          <>
            <Typography color="text.secondary" sx={{ mb: 2 }}>
              {t('follow.count', { count: keys.length })}{' '}
              <Link component={RouterLink} to={eventId ? paths.tracking(eventId) : '/tracking'}>
                {t('follow.addMore')}
              </Link>
            </Typography>
            <Box
              sx={{
                display: 'grid',
                gap: 2,
                gridTemplateColumns: { xs: 'minmax(0, 1fr)', xl: 'repeat(2, minmax(0, 1fr))' },
              }}
              data-testid="followed-cards"
            >
              {keys.map((k) => (
                <FollowedCard key={k} trackingKey={k} />
              ))}
            </Box>
          </>
        )}
      </Box>
    </>
  );
}
