import { Box, Chip, Paper, Stack, Typography, useMediaQuery, useTheme } from '@mui/material';
import type { AthleteCard } from '@tempora/contracts';
import { formatDateTime, formatDuration } from '@tempora/domain';
import { type ChangeEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams, useSearchParams } from 'react-router';
import { PageError, PageHeader, PageLoading } from '../../../components/page-state.tsx';
import { paths } from '../../../config/paths.ts';
import {
  useFollowedCards,
  useMapAthletes,
  useMapLeaders,
} from '../../../features/live/api/get-map-runners.ts';
import { useRaceCourse } from '../../../features/live/api/get-race-course.ts';
import { useEventDetail } from '../../../features/live/api.ts';
import { type Coordinates, pointAlong, projector } from '../../../features/live/course.ts';
import {
  MARKER_COLOURS,
  MapMarker,
  type MapRunner,
  SpreadMarkers,
} from '../../../features/live/map-marker.tsx';
import { clusterMarkers, spreadPack } from '../../../features/live/map-markers.ts';
import { TILE_SIZE, tileUrl, tileView } from '../../../features/live/tiles.ts';
import { currentEnvironment } from '../../../lib/api-client.ts';
import { readKeys, useFavorites } from '../../../lib/favorites/use-favorites.ts';
import { pointName } from '../../../lib/point-name.ts';
import { runnerName } from '../../../lib/runner-name.ts';

/** The drawing's size: on a phone about the screen's width in portrait, so its units are pixels. */
const WIDE = { W: 800, H: 520 };
const PHONE = { W: 360, H: 440 };
/**
 * The largest pack spread on the map when tapped (issue 27); a larger one opens the list of its
 * runners (a ring of more would cover much of a phone's drawing).
 */
const SPREAD_MAX = 8;

/** The runner's last point reached and the net time there, as the card shows them. */
function lastPoint(a: AthleteCard, lng: string) {
  const split = [...a.splits].reverse().find((s) => s.netMs !== null);
  const point = split && a.race.points.find((p) => p.key === split.pointKey);
  return split && point ? `${formatDuration(split.netMs)} · ${pointName(point, lng)}` : null;
}

/**
 * `/events/{eventId}/map`: the course line, its timing points, and the estimated live positions
 * of the followed athletes (the event's favourites) and of the race leaders. Drawn as SVG over
 * raster tiles when the environment has a map key (`tiles.ts`), else on a plain background
 * (product.md: a plain background when there is no map key or no network).
 */
export default function MapPage() {
  const { t, i18n } = useTranslation('live');
  const { eventId = '' } = useParams();
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
  const { W, H } = phone ? PHONE : WIDE;
  // Text and markers in the drawing's units: at least 12 px once the drawing is scaled to fit.
  const font = phone ? 13 : 16;
  const event = useEventDetail(eventId);
  // The race in the address (`?race=`, set by a race's chips): the map opens on the race the user
  // came from (issue 27: opened from the marathon it showed the 10 km).
  const [params, setParams] = useSearchParams();
  const chosen = params.get('race');
  const race = event.data?.races.find((r) => r.id === chosen) ?? event.data?.races[0];
  // The marker whose panel is open, and the pack spread on the map: ids of bibs joined by `|`.
  const [open, setOpen] = useState<string | null>(null);
  const [spread, setSpread] = useState<string | null>(null);
  const db = race?.db;
  const course = useRaceCourse(db, race?.id);
  const leaders = useMapLeaders(db, race?.id);
  const { favorites } = useFavorites(eventId);
  const leaderBibs =
    [...(leaders.data?.points ?? [])]
      .reverse()
      .find((p) => p.rows.length)
      ?.rows.map((r) => r.bib) ?? [];
  // The followed runners (the first 30), each found in whichever race of the event they run.
  const followed = useFollowedCards(db, [...favorites].slice(0, 30), readKeys(eventId));
  const leading = useMapAthletes(
    db,
    leaderBibs.filter((b) => !favorites.has(b)),
  );

  // Issue 43: a live race before its first split showed an empty map. Say it on the map, as the
  // table does: when it started and from about when the first times come at the first point.
  const start = race?.start;
  const zone = event.data?.timeZone;
  const clock = (ms: number) => formatDateTime(ms, zone, i18n.language, { date: false });
  const beforeFirstTimes =
    event.data?.status === 'live' &&
    !!start &&
    !!leaders.data &&
    !leaders.data.points.some((p) => p.distanceM > 0 && p.rows.length > 0);
  const firstPoint = start?.firstPoint && pointName(start.firstPoint, i18n.language);

  if (event.isPending) return <PageLoading />;
  if (event.isError) return <PageError error={event.error} />;
  const c = course.data;
  const line: Coordinates =
    c?.course?.coordinates ??
    c?.points.filter((p) => p.lat !== null && p.lon !== null).map((p) => [p.lon!, p.lat!] as const) ??
    [];
  // With a map key, Web Mercator over raster tiles; without, the plain local projection.
  const mapKey = currentEnvironment().mapKey;
  const tiles = line.length && mapKey ? tileView(line, W, H) : null;
  const project = tiles ? tiles.project : line.length ? projector(line, W, H) : null;
  const path = project ? line.map((p, k) => `${k ? 'L' : 'M'}${project(p).join(',')}`).join(' ') : '';
  const markers = [...followed, ...leading]
    .map((q) => q.data)
    .filter((a): a is AthleteCard => !!a && a.race.id === race?.id && a.estimatedDistanceM !== null)
    .flatMap((a) => {
      const at = project ? pointAlong(line, a.estimatedDistanceM! / a.race.distanceM) : null;
      if (!at || !project) return [];
      const [x, y] = project(at);
      return [{ x, y, item: { a, fav: favorites.has(a.athlete.bib) } as MapRunner }];
    });
  // A pack is one marker with its size (issue 19: markers covered each other on a phone).
  const clusters = clusterMarkers(markers, 30).map((c) => ({
    ...c,
    id: c.items.map(({ a }) => a.athlete.bib).join('|'),
  }));
  // The open marker's and the spread pack's runners, kept while the markers move (matched by any
  // runner still in them).
  const find = (id: string | null) => {
    const bibs = new Set(id?.split('|'));
    return id ? clusters.find((c) => c.items.some(({ a }) => bibs.has(a.athlete.bib))) : undefined;
  };
  const spreadPackOf = find(spread);
  const spreadOpen = spreadPackOf && spreadPackOf.items.length > 1 ? spreadPackOf : undefined;
  // A spread runner's panel shows that runner; another marker's, all it stands for.
  const openRunner = spreadOpen?.items.find(({ a }) => a.athlete.bib === open);
  const opened = openRunner ? undefined : find(open);
  const panel = openRunner ? [openRunner] : opened?.items;
  const toggle = ({ id, items }: { id: string; items: MapRunner[] }) => {
    if (items.length > 1 && items.length <= SPREAD_MAX) {
      // A pack opens on the map (issue 27), its runners around its place; tapped again, it closes.
      setSpread(spreadOpen?.id === id ? null : id);
      setOpen(null);
    } else setOpen(opened?.id === id ? null : id);
  };
  const closeSpread = () => {
    setSpread(null);
    setOpen(null);
  };
  return (
    <>
      <PageHeader
        title={t('map')}
        documentTitle={`${event.data.name} · ${t('map')}`}
        crumbs={[[event.data.name, paths.eventHome(eventId)], [t('map')]]}
      />
      {event.data.races.length > 1 && (
        // A native select (issue 19: MUI's select brought 25 KB of JavaScript to this page; a
        // phone shows its own picker).
        <Box component="label" sx={{ display: 'inline-flex', flexDirection: 'column', gap: 0.5, mb: 2 }}>
          <Typography variant="caption" color="text.secondary">
            {t('race')}
          </Typography>
          <Box
            component="select"
            value={race?.id ?? ''}
            onChange={(e: ChangeEvent<HTMLSelectElement>) => {
              setOpen(null);
              setSpread(null);
              setParams({ race: e.target.value }, { replace: true });
            }}
            sx={{
              minWidth: 200,
              minHeight: 40,
              px: 1.5,
              font: 'inherit',
              color: 'text.primary',
              bgcolor: 'background.paper',
              border: 1,
              borderColor: 'rgba(0, 0, 0, 0.42)',
              borderRadius: 1,
              '&:focus-visible': { outline: 2, outlineColor: 'primary.main', outlineOffset: 1 },
            }}
          >
            {event.data.races.map((r) => (
              <option key={r.id} value={r.id}>
                {runnerName(r.name)}
              </option>
            ))}
          </Box>
        </Box>
      )}
      {course.isError && <PageError error={course.error} />}
      {!project && course.data && <Typography>{t('noCourse')}</Typography>}
      {project && (
        <Paper
          variant="outlined"
          sx={{ bgcolor: '#eef4f0', overflow: 'hidden', maxWidth: 960, position: 'relative' }}
        >
          {beforeFirstTimes && start && (
            <Box
              role="status"
              data-testid="map-before-first-times"
              sx={{
                position: 'absolute',
                top: 8,
                left: 8,
                right: 8,
                p: 1.5,
                bgcolor: 'rgba(255, 255, 255, 0.94)',
                border: 1,
                borderColor: 'divider',
                borderRadius: 1,
                boxShadow: 1,
                fontSize: 14,
              }}
            >
              {t(start.gunTimeMs <= Date.now() ? 'mapBefore.started' : 'mapBefore.starts', {
                time: clock(start.gunTimeMs),
              })}{' '}
              {firstPoint &&
                start.firstTimesMs !== null &&
                t('mapBefore.first', { point: firstPoint, time: clock(start.firstTimesMs) })}{' '}
              {t('mapBefore.empty')}
            </Box>
          )}
          <Box
            component="svg"
            viewBox={`0 0 ${W} ${H}`}
            // A group, not an image: its markers are buttons (an image's content is presentational,
            // and buttons inside one are nested interactive content, axe's serious finding).
            role="group"
            aria-label={t('mapLabel', { race: c?.name })}
            sx={{
              width: '100%',
              height: 'auto',
              display: 'block',
              // A tapped marker shows no focus box; a keyboard's focus shows a ring.
              '& .map-marker': { WebkitTapHighlightColor: 'transparent' },
              '& .map-marker:focus': { outline: 'none' },
              '& .map-marker:focus-visible circle:nth-of-type(2)': { stroke: '#111', strokeWidth: 4 },
            }}
          >
            {tiles?.tiles.map((tile) => (
              <image
                key={`${tile.z}/${tile.x}/${tile.y}/${tile.left}`}
                href={tileUrl(tile, mapKey)}
                x={tile.left}
                y={tile.top}
                width={TILE_SIZE}
                height={TILE_SIZE}
                data-testid="map-tile"
              />
            ))}
            <path
              d={path}
              fill="none"
              stroke="#1f3a5f"
              strokeWidth={5}
              strokeLinejoin="round"
              strokeLinecap="round"
            />
            {c?.points
              .filter((p) => p.lat !== null && p.lon !== null)
              .map((p) => {
                const [x, y] = project([p.lon!, p.lat!]);
                return (
                  <g key={p.key}>
                    <circle cx={x} cy={y} r={8} fill="#fff" stroke="#1f3a5f" strokeWidth={3} />
                    <text
                      // Near the right edge the name goes to the left of its point, never cut.
                      x={x > W * 0.7 ? x - 12 : x + 12}
                      textAnchor={x > W * 0.7 ? 'end' : 'start'}
                      y={y - 10}
                      fontSize={font}
                      fill="#1f3a5f"
                      fontWeight={600}
                      paintOrder="stroke"
                      stroke="#fff"
                      strokeWidth={3}
                    >
                      {pointName(p, i18n.language)}
                    </text>
                  </g>
                );
              })}
            {clusters
              .filter((c) => c.id !== spreadOpen?.id)
              .map((c) => (
                <MapMarker
                  key={c.id}
                  x={c.x}
                  y={c.y}
                  items={c.items}
                  width={W}
                  font={font}
                  expanded={opened?.id === c.id}
                  onToggle={() => toggle(c)}
                />
              ))}
            {spreadOpen && (
              // Drawn last: over the markers near it.
              <SpreadMarkers
                x={spreadOpen.x}
                y={spreadOpen.y}
                spread={spreadPack(spreadOpen.x, spreadOpen.y, spreadOpen.items.length, {
                  width: W,
                  height: H,
                })}
                items={spreadOpen.items}
                width={W}
                font={font}
                openBib={openRunner?.a.athlete.bib ?? null}
                onRunner={(bib) => setOpen(open === bib ? null : bib)}
                onClose={closeSpread}
              />
            )}
          </Box>
        </Paper>
      )}
      {panel && (
        <Paper
          variant="outlined"
          role="region"
          aria-label={t('mapPanel', { count: panel.length })}
          data-testid="map-panel"
          sx={{ mt: 1, p: 1.5, maxWidth: 960 }}
        >
          <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', gap: 1 }}>
            <Typography variant="subtitle2" component="h2">
              {t('mapPanel', { count: panel.length })}
            </Typography>
            <Box
              component="button"
              type="button"
              onClick={() => setOpen(null)}
              aria-label={t('mapPanelClose')}
              sx={{
                minWidth: 44,
                minHeight: 44,
                font: 'inherit',
                fontSize: 22,
                lineHeight: 1,
                border: 0,
                bgcolor: 'transparent',
                color: 'text.primary',
                cursor: 'pointer',
                borderRadius: 1,
                '&:focus-visible': { outline: 2, outlineColor: 'primary.main' },
              }}
            >
              ×
            </Box>
          </Stack>
          <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0 }}>
            {panel.map(({ a, fav }) => (
              <Box
                component="li"
                key={a.athlete.bib}
                sx={{ py: 0.75, borderTop: 1, borderColor: 'divider' }}
                data-testid="map-panel-runner"
              >
                <Box
                  component={RouterLink}
                  to={paths.tracking(eventId, a.athlete.trackingKey)}
                  sx={{ fontWeight: 700, color: fav ? '#7a240c' : 'primary.main', minHeight: 24 }}
                >
                  {fav ? '★ ' : ''}
                  {runnerName(a.athlete)}
                </Box>
                <Typography variant="body2" color="text.secondary">
                  {t('mapRunnerLine', { bib: a.athlete.bib })}
                  {lastPoint(a, i18n.language) ? ` · ${lastPoint(a, i18n.language)}` : ''}
                </Typography>
              </Box>
            ))}
          </Box>
        </Paper>
      )}
      <Stack direction="row" sx={{ gap: 1, mt: 1, flexWrap: 'wrap' }}>
        <Chip
          size="small"
          sx={{ bgcolor: MARKER_COLOURS.followed, color: '#fff' }}
          label={t('legendFavourite')}
        />
        <Chip size="small" sx={{ bgcolor: MARKER_COLOURS.leader, color: '#fff' }} label={t('legendLeader')} />
        <Typography variant="caption" color="text.secondary" sx={{ alignSelf: 'center' }}>
          {t('mapNote')} {t('mapTap')}
        </Typography>
      </Stack>
    </>
  );
}
