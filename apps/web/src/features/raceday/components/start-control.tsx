import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Paper,
  TextField,
  Typography,
} from '@mui/material';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';
import { type RacedayRace, useRacedayMutation } from '../api/raceday.ts';
import { formatClock, parseTimeOfDay } from '../time.ts';

/** Start control of one race: fire the gun (time taken at the press), correct it, waves, start lists. */
export function StartControl({
  db,
  race,
  skewMs,
  timeZone,
}: {
  db: string;
  race: RacedayRace;
  skewMs: number;
  timeZone?: string | undefined;
}) {
  const { t } = useTranslation('raceday');
  const pressedAt = useRef<number | null>(null);
  const [confirm, setConfirm] = useState(false);
  const [gunText, setGunText] = useState('');
  const [reason, setReason] = useState('');
  const [list, setList] = useState('');
  const [listError, setListError] = useState<string | null>(null);
  const start = useRacedayMutation<Record<string, unknown>>(
    db,
    `/races/${encodeURIComponent(race.id)}/start`,
  );
  const error = start.error instanceof ApiError ? start.error.message : null;
  const fire = () => {
    pressedAt.current = Date.now() + skewMs; // the press, not the confirmation, is the gun
    setConfirm(true);
  };
  const confirmFire = () => {
    start.mutate({
      body: { action: 'gun', timeMs: Math.round(pressedAt.current!), reason: t('start.gunFired') },
    });
    setConfirm(false);
  };
  const setGun = (e: React.FormEvent) => {
    e.preventDefault();
    const timeMs = parseTimeOfDay(gunText, race.gunTimeMs ?? Date.now(), timeZone);
    if (timeMs !== null) start.mutate({ body: { action: 'gun', timeMs, reason } });
  };
  const sendList = () => {
    const starts: { bib: string; startTimeMs: number }[] = [];
    for (const [k, line] of list.split('\n').entries()) {
      if (!line.trim()) continue;
      const [bib, time] = line.trim().split(/[\s;,\t]+/);
      const at = time ? parseTimeOfDay(time, race.gunTimeMs ?? Date.now(), timeZone) : null;
      if (!bib || at === null) return setListError(t('desk.bulkBadLine', { line: k + 1 }));
      starts.push({ bib, startTimeMs: at });
    }
    setListError(null);
    start.mutate({ body: { action: 'individual', starts, reason: reason || t('start.startList') } });
  };
  return (
    <Paper variant="outlined" sx={{ p: 2, display: 'grid', gap: 2 }} data-testid="start-control">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Box sx={{ flexGrow: 1 }}>
          <Typography component="h2" variant="h6">
            {race.name}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t('start.gunTime')}:{' '}
            <strong data-testid="gun-time">{formatClock(race.gunTimeMs, timeZone)}</strong>
          </Typography>
        </Box>
        <Button
          variant="contained"
          color="error"
          size="large"
          onClick={fire}
          sx={{ minWidth: 180, minHeight: 72, fontSize: 22, borderRadius: 3 }}
        >
          {t('start.fire')}
        </Button>
      </Box>
      <Dialog open={confirm} onClose={() => setConfirm(false)}>
        <DialogTitle>{t('start.confirmTitle', { race: race.name })}</DialogTitle>
        <DialogContent>
          <Typography>
            {t('start.confirmText', { time: formatClock(pressedAt.current, timeZone) })}
          </Typography>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirm(false)}>{t('common.cancel')}</Button>
          <Button variant="contained" color="error" onClick={confirmFire} autoFocus>
            {t('start.confirm')}
          </Button>
        </DialogActions>
      </Dialog>
      <Box
        component="form"
        onSubmit={setGun}
        sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'flex-start' }}
      >
        <TextField
          size="small"
          label={t('start.correctGun')}
          placeholder="hh:mm:ss.ms"
          value={gunText}
          onChange={(e) => setGunText(e.target.value)}
        />
        <TextField
          size="small"
          label={t('correct.reason')}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
        <Button type="submit" disabled={!gunText}>
          {t('start.setGun')}
        </Button>
      </Box>
      {race.waves.length > 0 && (
        <Box>
          <Typography variant="subtitle2">{t('start.waves')}</Typography>
          {race.waves.map((w) => (
            <WaveLine key={w.id} db={db} race={race} wave={w} timeZone={timeZone} />
          ))}
        </Box>
      )}
      {race.startType === 'individual' && (
        <Box sx={{ display: 'grid', gap: 1 }}>
          <TextField
            multiline
            minRows={3}
            label={t('start.startList')}
            helperText={t('start.startListHelp')}
            value={list}
            onChange={(e) => setList(e.target.value)}
          />
          {listError && <Alert severity="error">{listError}</Alert>}
          <Button onClick={sendList} disabled={!list.trim()} sx={{ justifySelf: 'start' }}>
            {t('start.saveList')}
          </Button>
        </Box>
      )}
      {error && <Alert severity="error">{error}</Alert>}
      {start.isSuccess && (
        <Alert severity="success" role="status">
          {t('start.saved')}
        </Alert>
      )}
    </Paper>
  );
}

function WaveLine({
  db,
  race,
  wave,
  timeZone,
}: {
  db: string;
  race: RacedayRace;
  wave: { id: string; startTime: number };
  timeZone?: string | undefined;
}) {
  const { t } = useTranslation('raceday');
  const [text, setText] = useState('');
  const save = useRacedayMutation<Record<string, unknown>>(db, `/races/${encodeURIComponent(race.id)}/start`);
  return (
    <Box
      component="form"
      sx={{ display: 'flex', gap: 1, alignItems: 'center', mt: 1 }}
      onSubmit={(e) => {
        e.preventDefault();
        const timeMs = parseTimeOfDay(text, wave.startTime, timeZone);
        if (timeMs !== null) save.mutate({ body: { action: 'wave', waveId: wave.id, timeMs, reason: '' } });
      }}
    >
      <Typography sx={{ minWidth: 140 }}>
        {wave.id}: {formatClock(wave.startTime, timeZone)}
      </Typography>
      <TextField
        size="small"
        label={t('start.newTime')}
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      <Button type="submit" disabled={!text}>
        {t('start.setGun')}
      </Button>
    </Box>
  );
}
