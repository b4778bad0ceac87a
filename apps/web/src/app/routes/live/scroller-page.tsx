import { Alert, Box, Button, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { joinTitle } from '@tempora/domain';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageError, PageLoading } from '../../../components/page-state.tsx';
import { reportListQuery } from '../../../features/results/api/get-report-list.ts';
import { planColumns } from '../../../features/results/components/column-layout.ts';
import { ReportCell } from '../../../features/results/components/report-cell.tsx';
import { useLiveReport } from '../../../features/results/hooks/use-live-report.ts';
import { useWidth } from '../../../features/results/hooks/use-width.ts';
import { useDocumentTitle } from '../../../lib/document-title.ts';

export const SCROLLER_SIZE = { min: 3, max: 100 } as const;
export const SCROLLER_DELAY = { min: 2, max: 300 } as const;

/** Validates the `size` and `delay` parameters of the scroller route; null when out of range. */
export function scrollerParams(
  size: string | undefined,
  delay: string | undefined,
): { size: number; delay: number } | null {
  const s = Number(size);
  const d = Number(delay);
  if (!Number.isInteger(s) || s < SCROLLER_SIZE.min || s > SCROLLER_SIZE.max) return null;
  if (!Number.isFinite(d) || d < SCROLLER_DELAY.min || d > SCROLLER_DELAY.max) return null;
  return { size: s, delay: d };
}

/**
 * `…/ctx/{db}/generic/{path}/scroller/{key}/{size}/{delay}`: big screens. Pages of `size` rows of
 * report `key`, advancing every `delay` seconds and looping, in large type; rows update live in
 * place (the page index is kept, so nothing jumps).
 */
export default function ScrollerPage() {
  const { t, i18n } = useTranslation('live');
  const { eventId = '', db = '', key = '', size, delay } = useParams();
  // Issue 27: the big screen names the event and the race, not only "Overall".
  const list = useQuery({ ...reportListQuery(eventId), enabled: eventId !== '' });
  const params = scrollerParams(size, delay);
  const report = useLiveReport({ db, report: key });
  const [page, setPage] = useState(0);
  // Full screen on request (browsers allow it only from a click): the board alone on the screen.
  const screen = useRef<HTMLDivElement>(null);
  const width = useWidth(screen, window.innerWidth);
  const language = i18n.language === 'en' ? 'en' : 'fr';
  const race = list.data?.groups.find((g) => g.key === report.data?.group)?.name[language];
  const heading = report.data
    ? joinTitle([list.data?.event.name, race, report.data.title[language]])
    : undefined;
  useDocumentTitle(heading && `${heading} · ${t('views:scroller')}`);
  const canFullScreen = typeof document !== 'undefined' && document.fullscreenEnabled;
  const [fullScreen, setFullScreen] = useState(false);
  useEffect(() => {
    const onChange = () => setFullScreen(document.fullscreenElement !== null);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);
  const rows = report.data?.rows ?? [];
  const pages = params ? Math.max(1, Math.ceil(rows.length / params.size)) : 1;
  useEffect(() => {
    if (!params) return;
    const timer = setInterval(() => setPage((p) => (p + 1) % pages), params.delay * 1000);
    return () => clearInterval(timer);
  }, [params?.delay, pages, params]);
  if (!params) {
    return (
      <Alert severity="error" role="alert" sx={{ m: 2 }}>
        {t('scrollerInvalid', { ...SCROLLER_SIZE, dmin: SCROLLER_DELAY.min, dmax: SCROLLER_DELAY.max })}
      </Alert>
    );
  }
  if (report.isPending) return <PageLoading />;
  if (report.isError) return <PageError error={report.error} />;
  const table = report.data;
  const lng = i18n.language === 'en' ? 'en' : 'fr';
  const current = page % pages;
  const shown = rows.slice(current * params.size, (current + 1) * params.size);
  // Issue 19: the columns that fit, by priority (column-layout.ts), measured at the scroller's
  // type size (it grows with the screen: the plan works in 14 px units).
  const fontPx = Math.min(34, Math.max(14, window.innerWidth * 0.0145));
  const plan = planColumns(table.columns, (width * 14) / fontPx / 1.15);
  const columns = plan.visible.map((i) => table.columns[i]!).filter((c) => c.Type !== 'favorite');
  const template = columns
    .map((c) =>
      // In em: the columns scale with the type, which scales with the screen.
      c.Type === 'time'
        ? 'minmax(4.2em, 5em)'
        : c.UrlColumnIdx >= 0
          ? 'minmax(7em, 3fr)'
          : c.Alignment === 'Right'
            ? 'minmax(2.5em, 3.5em)'
            : 'minmax(3em, 1fr)',
    )
    .join(' ');
  return (
    <Box
      sx={{
        bgcolor: '#0d1b2a',
        color: '#fff',
        minHeight: '100vh',
        p: { xs: 1, sm: 2 },
        overflow: 'hidden',
        fontSize: 'clamp(14px, 1.45vw, 34px)',
      }}
      data-testid="scroller"
      ref={screen}
    >
      <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'baseline', gap: 2, mb: 1 }}>
        <Typography component="h1" sx={{ fontSize: '1.4em', fontWeight: 700, flexGrow: 1 }}>
          {heading}
        </Typography>
        <Typography aria-live="polite" sx={{ fontSize: '0.9em', opacity: 0.8 }}>
          {t('page', { page: current + 1, pages })}
        </Typography>
        {canFullScreen && !fullScreen && (
          <Button
            variant="outlined"
            size="small"
            onClick={() => void screen.current?.requestFullscreen().catch(() => undefined)}
            sx={{ color: '#fff', borderColor: 'rgba(255,255,255,0.5)' }}
          >
            {t('fullScreen')}
          </Button>
        )}
      </Box>
      <Box
        role="table"
        aria-label={table.title[lng]}
        sx={{
          '& a': { color: '#fff' },
          // One line per cell: a long name or club is cut with an ellipsis, never drawn over its neighbour.
          '& [role=row] > *': {
            minWidth: 0,
            overflow: 'hidden',
            textOverflow: 'ellipsis',
            whiteSpace: 'nowrap',
            px: 0.5,
          },
          // Headers may take two lines rather than lose their words.
          '& [role=row] > [role=columnheader]': {
            whiteSpace: 'normal',
            textOverflow: 'clip',
            lineHeight: 1.15,
          },
        }}
      >
        <Box
          role="row"
          sx={{
            display: 'grid',
            gridTemplateColumns: template,
            fontWeight: 700,
            borderBottom: '2px solid #39aade',
            py: 0.5,
          }}
        >
          {columns.map((c) => (
            <Box
              role="columnheader"
              key={c.FieldIdx}
              sx={{ px: 1, textAlign: c.Alignment === 'Right' ? 'right' : 'left' }}
            >
              {c.Title[lng]}
            </Box>
          ))}
        </Box>
        {shown.map((row, k) => (
          <Box
            role="row"
            key={String(row[table.keyField])}
            sx={{
              display: 'grid',
              gridTemplateColumns: template,
              py: 0.75,
              bgcolor: k % 2 ? 'rgba(255,255,255,0.06)' : 'transparent',
              alignItems: 'center',
            }}
          >
            {columns.map((c) => (
              <ReportCell
                key={c.FieldIdx}
                column={c}
                row={row}
                keyField={table.keyField}
                favorite={false}
                onToggleFavorite={() => undefined}
                flagBase=""
                lng={lng}
              />
            ))}
          </Box>
        ))}
      </Box>
    </Box>
  );
}
