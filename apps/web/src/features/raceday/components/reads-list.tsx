import { Box, Button, Chip, MenuItem, Paper, TextField, Typography } from '@mui/material';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pointName } from '../../../lib/point-name.ts';
import {
  type DeskFilters,
  type DeskRead,
  type DeviceRow,
  type RacedayPoint,
  usePassings,
} from '../api/raceday.ts';
import { formatClock } from '../time.ts';
import { CorrectionDialog, type CorrectionKind } from './correction-dialog.tsx';

const ROW = 44;

/** Live reads of a context, newest first, virtualised, filtered by point, device or bib. */
export function ReadsList({
  db,
  points,
  devices,
  timeZone,
}: {
  db: string;
  points: RacedayPoint[];
  devices: DeviceRow[];
  timeZone?: string | undefined;
}) {
  const { t, i18n } = useTranslation('raceday');
  const [filters, setFilters] = useState<DeskFilters>({});
  const pointLabel = (key: string) => {
    const point = points.find((p) => p.key === key);
    return point ? pointName(point, i18n.language) : key;
  };
  const [bibText, setBibText] = useState('');
  const [dialog, setDialog] = useState<{ kind: CorrectionKind; read: DeskRead | null } | null>(null);
  const reads = usePassings(db, filters);
  const list = reads.data?.reads ?? [];
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: list.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW,
    overscan: 8,
  });
  const deviceName = new Map(devices.map((d) => [d.id, d.name]));
  const set = (k: keyof DeskFilters, v: string) => setFilters((f) => ({ ...f, [k]: v || undefined }));
  return (
    <Paper variant="outlined" sx={{ p: 2, display: 'grid', gap: 1 }}>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
        <Typography component="h2" variant="h6" sx={{ flexGrow: 1 }}>
          {t('desk.readsTitle')}
        </Typography>
        <TextField
          select
          size="small"
          label={t('desk.point')}
          value={filters.point ?? ''}
          onChange={(e) => set('point', e.target.value)}
          sx={{ minWidth: 110 }}
        >
          <MenuItem value="">{t('desk.all')}</MenuItem>
          {points.map((p) => (
            <MenuItem key={p.key} value={p.key}>
              {pointName(p, i18n.language)}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label={t('desk.device')}
          value={filters.device ?? ''}
          onChange={(e) => set('device', e.target.value)}
          sx={{ minWidth: 120 }}
        >
          <MenuItem value="">{t('desk.all')}</MenuItem>
          {devices.map((d) => (
            <MenuItem key={d.id} value={d.id}>
              {d.name}
            </MenuItem>
          ))}
        </TextField>
        <Box
          component="form"
          onSubmit={(e) => {
            e.preventDefault();
            set('bib', bibText.trim());
          }}
        >
          <TextField
            size="small"
            label={t('desk.filterBib')}
            value={bibText}
            onChange={(e) => setBibText(e.target.value)}
            sx={{ width: 160 }}
          />
        </Box>
        <Button onClick={() => setDialog({ kind: 'add', read: null })}>{t('correct.addTitle')}</Button>
      </Box>
      <Box
        ref={scroller}
        sx={{
          height: { xs: 380, md: 480 },
          overflow: 'auto',
          border: 1,
          borderColor: 'divider',
          borderRadius: 1,
        }}
        role="list"
        aria-label={t('desk.readsTitle')}
      >
        <Box sx={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((v) => {
            const r = list[v.index]!;
            return (
              <Box
                key={r.seq}
                role="listitem"
                data-testid="read-row"
                data-passing={r.id}
                sx={{
                  position: 'absolute',
                  top: 0,
                  left: 0,
                  right: 0,
                  height: ROW,
                  transform: `translateY(${v.start}px)`,
                  display: 'flex',
                  alignItems: 'center',
                  gap: 1,
                  px: 1,
                  borderBottom: 1,
                  borderColor: 'divider',
                  fontSize: 14,
                  opacity: r.voided ? 0.6 : 1,
                  textDecoration: r.voided ? 'line-through' : 'none',
                }}
              >
                <Box component="span" sx={{ fontFamily: 'monospace', minWidth: 100 }}>
                  {formatClock(r.timeMs, timeZone)}
                </Box>
                <Box component="span" sx={{ minWidth: 56, fontWeight: 600 }}>
                  {r.runner?.bib ?? r.bib ?? '?'}
                </Box>
                <Box
                  component="span"
                  sx={{
                    flexGrow: 1,
                    minWidth: 0,
                    overflow: 'hidden',
                    textOverflow: 'ellipsis',
                    whiteSpace: 'nowrap',
                  }}
                >
                  {r.runner ? r.runner.name : <em>{t('desk.unknownChip', { chip: r.chip ?? r.bib })}</em>}
                </Box>
                <Chip
                  size="small"
                  label={pointLabel(r.pointKey)}
                  variant="outlined"
                  sx={{ display: { xs: 'none', sm: 'inline-flex' } }}
                />
                <Box
                  component="span"
                  sx={{ display: { xs: 'none', md: 'inline' }, color: 'text.secondary', minWidth: 90 }}
                >
                  {r.deviceId ? (deviceName.get(r.deviceId) ?? t('desk.device')) : t(`source.${r.source}`)}
                </Box>
                {r.voided ? (
                  <Button
                    size="small"
                    onClick={() => setDialog({ kind: 'restore', read: r })}
                    sx={{ textDecoration: 'none' }}
                  >
                    {t('correct.restore')}
                  </Button>
                ) : (
                  <>
                    <Button size="small" onClick={() => setDialog({ kind: 'edit', read: r })}>
                      {t('correct.edit')}
                    </Button>
                    <Button
                      size="small"
                      color="error"
                      onClick={() => setDialog({ kind: 'void', read: r })}
                      aria-label={t('correct.voidNamed', { bib: r.runner?.bib ?? r.chip ?? '' })}
                    >
                      {t('correct.void')}
                    </Button>
                  </>
                )}
              </Box>
            );
          })}
        </Box>
      </Box>
      {dialog && (
        <CorrectionDialog
          db={db}
          kind={dialog.kind}
          read={dialog.read}
          points={points}
          timeZone={timeZone}
          onClose={() => setDialog(null)}
        />
      )}
    </Paper>
  );
}
