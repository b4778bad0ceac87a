import {
  mdiAccountSearchOutline,
  mdiCertificateOutline,
  mdiChartBar,
  mdiChevronDown,
  mdiFormatListNumbered,
  mdiMapOutline,
  mdiMonitor,
  mdiPodium,
  mdiRepeat,
  mdiStar,
  mdiSwapHorizontal,
  mdiTimerOutline,
  mdiTrophyOutline,
} from '@mdi/js';
import { Box } from '@mui/material';
import type { EventDetail } from '@tempora/contracts';
import { formatDateTime } from '@tempora/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { LazyCorrectionsNote } from '../../components/corrections-note-lazy.tsx';
import { MdiIcon } from '../../components/mdi-icon.tsx';
import { paths } from '../../config/paths.ts';

/**
 * The end of a protest window in the event's zone, named (issue 43), as the report's pre-paint
 * shows it (report-pre-paint.ts).
 */
const publicationTime = (ms: number, lng: string, timeZone: string | undefined) =>
  formatDateTime(ms, timeZone, lng, { date: false });

/** The generic path segment of the live views (`…/generic/live/stats/{race}`). */
const GENERIC = 'live';

type Race = EventDetail['races'][number];

/** A chip's look: MUI's outlined clickable Chip. */
const chipSx = {
  display: 'inline-flex',
  alignItems: 'center',
  gap: 0.75,
  height: 32,
  px: 1.25,
  border: 1,
  borderColor: 'rgba(0, 0, 0, 0.23)',
  borderRadius: 4,
  bgcolor: 'transparent',
  color: 'text.primary',
  font: 'inherit',
  fontSize: 13,
  fontWeight: 500,
  lineHeight: 1,
  whiteSpace: 'nowrap',
  cursor: 'pointer',
  '&:hover': { bgcolor: 'action.hover' },
  '&:focus-visible': { outline: 2, outlineColor: 'primary.dark', outlineOffset: 1 },
  '& svg': { color: 'text.secondary' },
} as const;

/** Below this width (px) a report page's views fold behind one button (report-pre-paint.ts too). */
const PHONE = '@media (max-width: 599.95px)';

/**
 * A link in a row of chips: styled as MUI's outlined clickable Chip, without its 3 KB of gzip on
 * every report page (issue 19: the first JS of a public page).
 */
function ViewChip({
  to,
  icon,
  label,
  tone,
}: {
  to?: string;
  icon: string;
  label: string;
  /** A state, not a link (the results' publication): filled, green once official. */
  tone?: 'state' | 'official';
}) {
  return (
    <li data-keep={tone ? true : undefined}>
      <Box
        {...(to ? { component: RouterLink, to } : { component: 'span' })}
        sx={{
          ...chipSx,
          textDecoration: 'none',
          cursor: undefined,
          ...(tone && {
            borderColor: 'transparent',
            bgcolor: tone === 'official' ? '#e8f5e9' : 'rgba(0, 0, 0, 0.06)',
            color: tone === 'official' ? '#1b5e20' : 'text.primary',
            '&:hover': {},
          }),
        }}
      >
        <MdiIcon path={icon} fontSize="small" aria-hidden />
        {label}
      </Box>
    </li>
  );
}

/**
 * Every live view of one race, by a click (issue 19: every view reachable from the event home and
 * the report pages): leaders board, statistics, the time-trial board for individual starts, the
 * big-screen scroller of its overall report; `withEvent` adds the event's favourites, map,
 * tracking and series standings.
 */
export function RaceViewLinks({
  eventId,
  race,
  favorites,
  series = [],
  withEvent = false,
  map = true,
  timeZone,
  folded = false,
}: {
  eventId: string;
  race: Race;
  /** The event's zone: the corrections' dates are stated in it (issue 43). */
  timeZone?: string | undefined;
  favorites?: number;
  series?: { id: string; name: string }[];
  withEvent?: boolean;
  /** Whether the event has a course map to show (issue 27: no chip leading nowhere). */
  map?: boolean;
  /**
   * On a phone, the views behind one button (issue 41: a report page's table is the page — seven
   * chips stood above its first rows); the results' state stays in sight.
   */
  folded?: boolean;
}) {
  const { t, i18n } = useTranslation('views');
  const [open, setOpen] = useState(false);
  const published = race.publication;
  return (
    <>
      <Box
        component="ul"
        id={`views-${race.id}`}
        aria-label={t('liveViewsOf', { race: race.name })}
        data-open={open}
        sx={{
          display: 'flex',
          flexWrap: 'wrap',
          gap: 1,
          listStyle: 'none',
          p: 0,
          m: 0,
          ...(folded && {
            [PHONE]: { '&[data-open=false] > li:not([data-keep])': { display: 'none' } },
            '& > li[data-toggle]': { display: 'none', [PHONE]: { display: 'list-item' } },
          }),
        }}
      >
        {withEvent && published && (
          <ViewChip
            tone={published.state === 'official' ? 'official' : 'state'}
            icon={mdiCertificateOutline}
            label={t(published.state, {
              time: published.protestEndsMs
                ? publicationTime(published.protestEndsMs, i18n.language, timeZone)
                : '',
            })}
          />
        )}
        {folded && (
          <li data-keep data-toggle>
            <Box
              component="button"
              type="button"
              aria-expanded={open}
              aria-controls={`views-${race.id}`}
              onClick={() => setOpen((o) => !o)}
              sx={{
                ...chipSx,
                '& svg': { transition: 'transform 150ms' },
                '&[aria-expanded=true] svg': { transform: 'rotate(180deg)' },
              }}
            >
              {t('moreViews')}
              <MdiIcon path={mdiChevronDown} fontSize="small" aria-hidden />
            </Box>
          </li>
        )}
        {withEvent && (
          <ViewChip
            to={paths.eventFavorites(eventId)}
            icon={mdiStar}
            label={favorites ? t('favoritesCount', { count: favorites }) : t('favorites')}
          />
        )}
        {(race.format === 'laps' || race.format === 'timeLimited' || race.format === 'backyard') && (
          <ViewChip to={paths.laps(race.db, race.id)} icon={mdiRepeat} label={t('laps')} />
        )}
        {(race.format === 'multisport' || race.format === 'relay') && (
          <ViewChip
            to={paths.legs(race.db, race.id)}
            icon={mdiSwapHorizontal}
            label={t(race.format === 'relay' ? 'relayLegs' : 'legs')}
          />
        )}
        <ViewChip to={paths.leaders(race.db, race.id)} icon={mdiPodium} label={t('leaders')} />
        <ViewChip
          to={paths.genericStats(eventId, race.db, GENERIC, race.id)}
          icon={mdiChartBar}
          label={t('stats')}
        />
        {race.startType === 'individual' && (
          <ViewChip to={paths.clm(race.db, race.id)} icon={mdiTimerOutline} label={t('clm')} />
        )}
        <ViewChip
          to={paths.genericScroller(eventId, race.db, GENERIC, 'LIVE1', 10, 8)}
          icon={mdiMonitor}
          label={t('scroller')}
        />
        {withEvent && (
          <>
            {map && <ViewChip to={paths.eventMap(eventId, race.id)} icon={mdiMapOutline} label={t('map')} />}
            <ViewChip to={paths.tracking(eventId)} icon={mdiAccountSearchOutline} label={t('tracking')} />
            <ViewChip to={paths.reportList(eventId)} icon={mdiFormatListNumbered} label={t('results')} />
            {series.map((s) => (
              <ViewChip
                key={s.id}
                to={paths.series(s.id)}
                icon={mdiTrophyOutline}
                label={t('series', { name: s.name })}
              />
            ))}
          </>
        )}
      </Box>
      {withEvent && <LazyCorrectionsNote corrections={published?.corrections} timeZone={timeZone} />}
    </>
  );
}
