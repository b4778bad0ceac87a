import { Box, Chip, Paper, Stack, Typography, useMediaQuery, useTheme } from '@mui/material';
import { useQueries, useQuery } from '@tanstack/react-query';
import type { AthleteCard } from '@tempora/contracts';
import { type ChangeEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageError, PageHeader, PageLoading } from '../../../components/page-state.tsx';
import { paths } from '../../../config/paths.ts';
import { useEventDetail, useLiveRefetch } from '../../../features/live/api.ts';
import { type Coordinates, pointAlong, projector } from '../../../features/live/course.ts';
import { clusterMarkers } from '../../../features/live/map-markers.ts';
import { TILE_SIZE, tileUrl, tileView } from '../../../features/live/tiles.ts';
import { useFavorites } from '../../../features/results/hooks/use-favorites.ts';
import { apiGet, currentEnvironment } from '../../../lib/api-client.ts';
import { pointName } from '../../../lib/point-name.ts';

interface Course {
  raceId: string;
  name: string;
  distanceM: number;
  course: { type: 'LineString'; coordinates: [number, number][] } | null;
  /** The course's points, as on a tracking card (both names, their place). */
  points: AthleteCard['race']['points'];
}
interface Board {
  points: { key: string; rows: { bib: string }[] }[];
}

/** The drawing's size: on a phone about the screen's width in portrait, so its units are pixels. */
const WIDE = { W: 800, H: 520 };
const PHONE = { W: 360, H: 440 };

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
  const [chosen, setChosen] = useState<string | null>(null);
  const race = event.data?.races.find((r) => r.id === chosen) ?? event.data?.races[0];
  const db = race?.db;
  const course = useQuery({
    queryKey: ['course', db, race?.id],
    enabled: !!race,
    queryFn: ({ signal }) =>
      apiGet<Course>(
        'resultsApiUrlBase',
        `results/contexts/${encodeURIComponent(db!)}/races/${encodeURIComponent(race!.id)}/course`,
        { signal },
      ),
  });
  const leadersKey = ['map-leaders', db, race?.id] as const;
  const leaders = useQuery({
    queryKey: leadersKey,
    enabled: !!race,
    queryFn: ({ signal }) =>
      apiGet<Board>(
        'resultsApiUrlBase',
        `results/contexts/${encodeURIComponent(db!)}/races/${encodeURIComponent(race!.id)}/leaders?count=3`,
        { signal },
      ),
  });
  const { favorites } = useFavorites(eventId);
  const leaderBibs =
    [...(leaders.data?.points ?? [])]
      .reverse()
      .find((p) => p.rows.length)
      ?.rows.map((r) => r.bib) ?? [];
  const bibs = [...new Set([...favorites, ...leaderBibs])].slice(0, 30);
  const athletes = useQueries({
    queries: bibs.map((bib) => ({
      queryKey: ['map-athlete', db, bib],
      enabled: !!db,
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        apiGet<AthleteCard>(
          'trackingApiUrlBase',
          `results/contexts/${encodeURIComponent(db!)}/participants/${encodeURIComponent(bib)}`,
          { signal },
        ),
      refetchInterval: 15_000,
    })),
  });
  useLiveRefetch(db, ['map-athlete', db], undefined, 5000);
  useLiveRefetch(db, leadersKey, undefined, 5000);

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
  const markers = athletes
    .map((q) => q.data)
    .filter((a): a is AthleteCard => !!a && a.race.id === race?.id && a.estimatedDistanceM !== null)
    .flatMap((a) => {
      const at = project ? pointAlong(line, a.estimatedDistanceM! / a.race.distanceM) : null;
      if (!at || !project) return [];
      const [x, y] = project(at);
      return [{ x, y, item: { a, fav: favorites.has(a.athlete.bib) } }];
    });
  // A pack is one marker with its size (issue 19: markers covered each other on a phone).
  const clusters = clusterMarkers(markers, 30);
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
            onChange={(e: ChangeEvent<HTMLSelectElement>) => setChosen(e.target.value)}
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
                {r.name}
              </option>
            ))}
          </Box>
        </Box>
      )}
      {course.isError && <PageError error={course.error} />}
      {!project && course.data && <Typography>{t('noCourse')}</Typography>}
      {project && (
        <Paper variant="outlined" sx={{ bgcolor: '#eef4f0', overflow: 'hidden', maxWidth: 960 }}>
          <Box
            component="svg"
            viewBox={`0 0 ${W} ${H}`}
            role="img"
            aria-label={t('mapLabel', { race: c?.name })}
            sx={{ width: '100%', height: 'auto', display: 'block' }}
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
            {clusters.map(({ x, y, items }) => {
              const fav = items.some((m) => m.fav);
              const names = items.map(
                ({ a }) => `${a.athlete.bib} ${a.athlete.firstName} ${a.athlete.lastName}`,
              );
              const label = items.length === 1 ? items[0]!.a.athlete.bib.slice(0, 4) : `×${items.length}`;
              return (
                <g key={names.join('|')} data-testid="map-athlete">
                  <title>{names.join(', ')}</title>
                  <circle
                    cx={x}
                    cy={y}
                    r={15}
                    fill={fav ? '#b33a17' : '#1f6f99'}
                    stroke="#fff"
                    strokeWidth={2}
                  />
                  <text x={x} y={y + 4} fontSize={12} fill="#fff" textAnchor="middle" fontWeight={700}>
                    {label}
                  </text>
                </g>
              );
            })}
          </Box>
        </Paper>
      )}
      <Stack direction="row" sx={{ gap: 1, mt: 1, flexWrap: 'wrap' }}>
        <Chip size="small" sx={{ bgcolor: '#b33a17', color: '#fff' }} label={t('legendFavourite')} />
        <Chip size="small" sx={{ bgcolor: '#1f6f99', color: '#fff' }} label={t('legendLeader')} />
        <Typography variant="caption" color="text.secondary" sx={{ alignSelf: 'center' }}>
          {t('mapNote')}
        </Typography>
      </Stack>
    </>
  );
}
