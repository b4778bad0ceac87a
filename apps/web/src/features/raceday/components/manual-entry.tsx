import { Alert, Box, Button, Chip, MenuItem, Paper, TextField, Typography } from '@mui/material';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pointName } from '../../../lib/point-name.ts';
import type { RacedayPoint, RacedayRace, Runner } from '../api/raceday.ts';
import { useDeskQueue } from '../hooks/use-desk-queue.ts';
import { formatClock, parseTimeOfDay } from '../time.ts';
import { confirmEntry } from './feedback.ts';
import { OfficialBanner, OfficialHoldDialog, useRaceName } from './official-hold.tsx';

/** Bib → name from the last runners list (kept in localStorage for the offline desk). */
function useBibNames(db: string, runners: Runner[] | undefined): Map<string, string> {
  return useMemo(() => {
    if (runners) return new Map(runners.map((r) => [r.bib, r.name]));
    try {
      const cached = JSON.parse(localStorage.getItem(`raceday-runners:${db}`) ?? '[]') as [string, string][];
      return new Map(cached);
    } catch {
      return new Map();
    }
  }, [db, runners]);
}

/**
 * Manual entry for a finish-line helper: type a bib, press Enter — the time is the key press's
 * (corrected by the server clock's skew), saved on the device at once, sent when the network
 * allows. A wrong bib is flagged at once; a beep and a vibration confirm.
 */
export function ManualEntry({
  db,
  races = [],
  points,
  runners,
  skewMs,
  timeZone,
}: {
  db: string;
  /** The context's races: which are official (issue 43), and their names. */
  races?: RacedayRace[];
  points: RacedayPoint[];
  runners: Runner[] | undefined;
  skewMs: number;
  timeZone?: string | undefined;
}) {
  const { t, i18n } = useTranslation('raceday');
  const queue = useDeskQueue(db);
  const names = useBibNames(db, runners);
  const raceName = useRaceName(races);
  const ranked = points.filter((p) => !p.isStart);
  const [pointKey, setPointKey] = useState(ranked[ranked.length - 1]?.key ?? points[0]?.key ?? '');
  const [bib, setBib] = useState('');
  const [typed, setTyped] = useState('');
  const [bulk, setBulk] = useState('');
  const [flag, setFlag] = useState<{ bib: string; ok: boolean } | null>(null);
  const [bulkError, setBulkError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const pressedAt = Date.now() + skewMs; // first: the time is the key press's
    const value = bib.trim();
    if (!value || !pointKey) return;
    const timeMs = typed.trim() ? parseTimeOfDay(typed, pressedAt, timeZone) : pressedAt;
    if (timeMs === null) {
      setFlag({ bib: value, ok: false });
      return;
    }
    const known = names.size === 0 || names.has(value);
    setFlag({ bib: value, ok: known });
    confirmEntry(known);
    setBib('');
    setTyped('');
    input.current?.focus();
    await queue.add([{ bib: value, pointKey, timeMs, name: names.get(value) ?? null }]);
  };

  const submitBulk = async () => {
    const now = Date.now() + skewMs;
    const items: { bib: string; pointKey: string; timeMs: number; name: string | null }[] = [];
    for (const [k, line] of bulk.split('\n').entries()) {
      if (!line.trim()) continue;
      const [b, time] = line.trim().split(/[\s;,\t]+/);
      const timeMs = time ? parseTimeOfDay(time, now, timeZone) : now;
      if (!b || timeMs === null) {
        setBulkError(t('desk.bulkBadLine', { line: k + 1 }));
        return;
      }
      items.push({ bib: b, pointKey, timeMs, name: names.get(b) ?? null });
    }
    setBulkError(null);
    await queue.add(items);
    setBulk('');
  };

  const recent = queue.entries.slice(-8).reverse();
  return (
    <Paper variant="outlined" sx={{ p: 2, display: 'grid', gap: 1.5 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Typography component="h2" variant="h6" sx={{ flexGrow: 1 }}>
          {t('desk.manualTitle')}
        </Typography>
        <Chip
          role="status"
          aria-live="polite"
          data-testid="pending-count"
          color={queue.pending ? 'warning' : 'success'}
          label={queue.pending ? t('desk.pending', { count: queue.pending }) : t('desk.allSent')}
        />
      </Box>
      <Box
        component="form"
        onSubmit={submit}
        sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'flex-start' }}
      >
        <TextField
          select
          size="small"
          label={t('desk.point')}
          value={pointKey}
          onChange={(e) => setPointKey(e.target.value)}
          sx={{ minWidth: 130 }}
        >
          {points.map((p) => (
            <MenuItem key={p.key} value={p.key}>
              {pointName(p, i18n.language)}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          inputRef={input}
          autoFocus
          label={t('desk.bib')}
          value={bib}
          onChange={(e) => setBib(e.target.value)}
          slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'off', 'data-testid': 'bib-input' } }}
          sx={{ width: 140 }}
          size="small"
        />
        <TextField
          label={t('desk.typedTime')}
          placeholder="hh:mm:ss.ms"
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          size="small"
          sx={{ width: 150 }}
          helperText={t('desk.typedTimeHelp')}
        />
        <Button type="submit" variant="contained">
          {t('desk.enter')}
        </Button>
      </Box>
      <OfficialBanner races={races} />
      {flag && (
        <Alert
          severity={queue.official ? 'warning' : flag.ok ? 'success' : 'error'}
          role="alert"
          data-testid="entry-flag"
        >
          {queue.official
            ? t('official.title', { race: queue.official.race ?? raceName(queue.official.raceId) })
            : flag.ok
              ? t('desk.saved', { bib: flag.bib, name: names.get(flag.bib) ?? '' })
              : t('desk.unknownBib', { bib: flag.bib })}
        </Alert>
      )}
      {queue.official && (
        <OfficialHoldDialog
          key={`${queue.official.raceId}-${queue.official.needsOrganiser}`}
          hold={queue.official}
          count={queue.pending}
          raceName={queue.official.race ?? raceName(queue.official.raceId)}
          onConfirm={queue.confirm}
          onDiscard={queue.discard}
        />
      )}
      {queue.error && <Alert severity="error">{queue.error}</Alert>}
      <Box
        component="ol"
        aria-label={t('desk.myEntries')}
        sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 0.5 }}
      >
        {recent.map((e) => (
          <Box
            component="li"
            key={e.clientId}
            sx={{ display: 'flex', gap: 1, fontSize: 14, alignItems: 'center' }}
          >
            <Box component="span" sx={{ fontFamily: 'monospace', minWidth: 110 }}>
              {formatClock(e.timeMs, timeZone)}
            </Box>
            <strong>{e.bib}</strong>
            <span>{e.name ?? names.get(e.bib) ?? ''}</span>
            <Chip
              size="small"
              variant="outlined"
              color={e.state === 'pending' ? 'warning' : e.known === false ? 'error' : 'success'}
              label={
                e.state === 'pending'
                  ? t('desk.notSent')
                  : e.known === false
                    ? t('desk.unknown')
                    : t('desk.sent')
              }
            />
          </Box>
        ))}
      </Box>
      <details>
        <summary>{t('desk.bulkTitle')}</summary>
        <Box sx={{ display: 'grid', gap: 1, mt: 1 }}>
          <TextField
            multiline
            minRows={3}
            label={t('desk.bulkLabel')}
            helperText={t('desk.bulkHelp')}
            value={bulk}
            onChange={(e) => setBulk(e.target.value)}
          />
          {bulkError && <Alert severity="error">{bulkError}</Alert>}
          <Button onClick={submitBulk} disabled={!bulk.trim()} sx={{ justifySelf: 'start' }}>
            {t('desk.bulkSubmit')}
          </Button>
        </Box>
      </details>
    </Paper>
  );
}
