import {
  mdiAccountGroupOutline,
  mdiCameraOutline,
  mdiEmailOutline,
  mdiInformationOutline,
  mdiMapOutline,
  mdiRunFast,
  mdiStarOutline,
  mdiTrophyOutline,
  mdiVideoOutline,
} from '@mdi/js';
import { Box, Button, Card, CardActionArea, CardContent, Chip, Paper, Typography } from '@mui/material';
import { formatDistance, nameSaysDistance, paceUnitOf } from '@tempora/domain';
import { useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { MdiIcon } from '../../../components/mdi-icon.tsx';
import { PageError, PageHeader, PageLoading } from '../../../components/page-state.tsx';
import { paths } from '../../../config/paths.ts';
import { useEvent } from '../../../features/content/api/events.ts';
import { useEventDates } from '../../../features/content/components/event-card.tsx';
import { EventEditDialog } from '../../../features/content/components/lazy-editors.tsx';
import { useCanManage } from '../../../features/content/use-can-manage.ts';
import { EntriesBanner } from '../../../features/entries/components/entries-banner.tsx';
import { RaceViewLinks } from '../../../features/live/race-view-links.tsx';
import { useFavorites } from '../../../lib/favorites/use-favorites.ts';
import { useEndPrePaint } from '../../../lib/pre-paint.ts';

/** `/events/{eventId}/home`: the event's branding, dates, place, races and quick links. */
export default function EventHomePage() {
  const { eventId = '' } = useParams();
  const { t, i18n } = useTranslation('content');
  const event = useEvent(eventId);
  const dates = useEventDates();
  const canEdit = useCanManage('Event', event.data?.organisationId);
  const [editing, setEditing] = useState(false);
  const { favorites } = useFavorites(eventId);
  const tv = useTranslation('views').t;
  // The page as drawn lags the answer by one render: its arrival renders the page as a transition,
  // in slices that give the main thread back (issue 28: Lighthouse TBT on a phone).
  const e = useDeferredValue(event.data);
  // The boot script's picture of this page (src/pre-paint/content-pre-paint.ts) goes once it is drawn.
  useEndPrePaint(!!e, event.isError);
  if (event.isError) return <PageError error={event.error} />;
  if (!e) return <PageLoading />;
  // Issue 27: a tile only where something is behind it (organisers see every tile, to fill them).
  const unit = paceUnitOf(e.timeZone);
  const has = (key: keyof NonNullable<typeof e.available>) => canEdit || !e.available || e.available[key];
  const links = (
    [
      ['results', mdiTrophyOutline, paths.reportList(eventId)],
      ['tracking', mdiRunFast, paths.tracking(eventId)],
      has('map') && ['map', mdiMapOutline, paths.eventMap(eventId)],
      has('photos') && [
        'photos',
        mdiCameraOutline,
        `${paths.photobox()}?event=${encodeURIComponent(eventId)}`,
      ],
      has('stream') && ['stream', mdiVideoOutline, `/results/${encodeURIComponent(eventId)}/youtube`],
      has('info') && ['info', mdiInformationOutline, paths.cms(eventId, 'main')],
      ['contact', mdiEmailOutline, paths.eventContact(eventId)],
      ['favorites', mdiStarOutline, paths.eventFavorites(eventId)],
      has('groupEntry') && ['groupEntry', mdiAccountGroupOutline, paths.deposit(eventId)],
    ] as const
  ).filter((link) => link !== false);
  return (
    <>
      <PageHeader
        title={e.name}
        crumbs={[[e.name]]}
        actions={
          canEdit && (
            <Button variant="outlined" onClick={() => setEditing(true)}>
              {t('event.edit')}
            </Button>
          )
        }
      />
      <EntriesBanner eventId={eventId} />
      <Paper
        variant="outlined"
        sx={{
          p: { xs: 2, sm: 3 },
          mb: 3,
          borderTop: 6,
          borderTopColor: e.branding.color ?? 'primary.main',
          backgroundImage: e.branding.bannerUrl ? `url(${JSON.stringify(e.branding.bannerUrl)})` : undefined,
          backgroundSize: 'cover',
        }}
      >
        {e.logoUrl && (
          <Box
            component="img"
            src={e.logoUrl}
            alt={t('event.logoAlt', { name: e.name })}
            data-testid="event-logo"
            sx={{
              float: 'right',
              maxHeight: { xs: 56, sm: 88 },
              maxWidth: { xs: 112, sm: 176 },
              ml: 2,
              mb: 1,
            }}
          />
        )}
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
          <Chip
            label={t(`status.${e.status}`)}
            color={e.status === 'live' ? 'error' : 'default'}
            size="small"
          />
          <Typography sx={{ fontWeight: 500 }}>{dates(e)}</Typography>
          {e.place && <Typography color="text.secondary">· {e.place}</Typography>}
        </Box>
        {e.branding.tagline && (
          <Typography variant="h6" component="p" sx={{ mt: 1 }}>
            {e.branding.tagline}
          </Typography>
        )}
        {e.races.length > 0 && (
          <Box sx={{ mt: 2 }}>
            <Typography variant="subtitle2" component="h2">
              {t('event.races')}
            </Typography>
            <Box
              component="ul"
              sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, listStyle: 'none', p: 0, m: 0, mt: 1 }}
            >
              {e.races.map((r) => (
                <li key={r.id}>
                  {/* Issue 43: every race said alike, its name then its distance in the event's unit —
                      the distance left out when the name already says it ("10 km", not "10 km · 10 km"). */}
                  <Chip
                    variant="outlined"
                    data-testid="race-chip"
                    label={
                      <>
                        <Box component="span" sx={{ fontWeight: 500 }}>
                          {r.name}
                        </Box>
                        {!nameSaysDistance(r.name, r.distanceM) && (
                          <>
                            {' · '}
                            <Box component="span" sx={{ color: 'text.secondary' }}>
                              {formatDistance(r.distanceM, unit, i18n.language)}
                            </Box>
                          </>
                        )}
                      </>
                    }
                  />
                </li>
              ))}
            </Box>
          </Box>
        )}
      </Paper>
      <Typography variant="h5" component="h2" sx={{ fontSize: 20, mb: 1.5 }}>
        {t('event.quickLinks')}
      </Typography>
      <Box
        component="nav"
        aria-label={t('event.quickLinks')}
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: 'repeat(2, 1fr)', sm: 'repeat(3, 1fr)', md: 'repeat(4, 1fr)' },
        }}
      >
        {links.map(([key, icon, to]) => (
          <Card key={key} variant="outlined">
            <CardActionArea component={RouterLink} to={to} sx={{ height: '100%' }}>
              <CardContent sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
                <MdiIcon path={icon} color="primary" aria-hidden />
                <Typography sx={{ fontWeight: 500 }}>
                  {key === 'favorites' ? tv('favoritesCount', { count: favorites.size }) : t(`links.${key}`)}
                </Typography>
              </CardContent>
            </CardActionArea>
          </Card>
        ))}
      </Box>
      {e.races.length > 0 && (
        <Box component="section" aria-labelledby="live-views" sx={{ mt: 3 }}>
          <Typography id="live-views" variant="h5" component="h2" sx={{ fontSize: 20, mb: 1.5 }}>
            {tv('liveViews')}
          </Typography>
          {e.races.map((race) => (
            <Box key={race.id} sx={{ mb: 2 }}>
              <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 0.5 }}>
                {race.name}
              </Typography>
              <RaceViewLinks eventId={eventId} race={race} />
            </Box>
          ))}
          {(e.series ?? []).length > 0 && (
            <Box
              component="ul"
              sx={{ listStyle: 'none', p: 0, m: 0, display: 'flex', gap: 1, flexWrap: 'wrap' }}
            >
              {(e.series ?? []).map((s) => (
                <li key={s.id}>
                  <Button component={RouterLink} to={paths.series(s.id)} variant="outlined" size="small">
                    {tv('series', { name: s.name })}
                  </Button>
                </li>
              ))}
            </Box>
          )}
        </Box>
      )}
      {editing && <EventEditDialog event={e} onClose={() => setEditing(false)} />}
    </>
  );
}
