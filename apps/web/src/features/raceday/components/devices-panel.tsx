import {
  Alert,
  Box,
  Button,
  Paper,
  Switch,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { formatClockOffset } from '@tempora/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageError, PageLoading } from '../../../components/page-state.tsx';
import { type DeviceRow, type RacedayRace, useDevices, useRacedayMutation } from '../api/raceday.ts';
import { formatClock, formatDrift } from '../time.ts';
import { DeviceForm } from './device-form.tsx';
import { DeviceStateChip } from './device-state-chip.tsx';
import { UnknownChips } from './unknown-chips.tsx';

/** The devices panel: every device's state live (polled every 2 s), its counts, drift and battery. */
export function DevicesPanel({
  db,
  races,
  timeZone,
}: {
  db: string;
  races: RacedayRace[];
  timeZone?: string;
}) {
  const { t } = useTranslation('raceday');
  const devices = useDevices(db);
  const [adding, setAdding] = useState(false);
  const toggle = useRacedayMutation<{ enabled: boolean }>(db, '', 'PATCH');
  const correct = useRacedayMutation<{ action: 'applyDrift'; reason: string }>(db, '');
  const points = [...new Map(races.flatMap((r) => r.points).map((p) => [p.key, p])).values()];
  if (devices.isPending) return <PageLoading />;
  if (devices.isError) return <PageError error={devices.error} />;
  const list = devices.data.devices;
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Typography component="h2" variant="h6" sx={{ flexGrow: 1 }}>
          {t('devices.title')}
        </Typography>
        <Button variant="contained" onClick={() => setAdding(true)}>
          {t('devices.add')}
        </Button>
      </Box>
      {adding && <DeviceForm db={db} points={points} onClose={() => setAdding(false)} />}
      {list.length === 0 ? (
        <Alert severity="info">{t('devices.none')}</Alert>
      ) : (
        <TableContainer component={Paper} variant="outlined">
          <Table size="small" aria-label={t('devices.title')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('devices.name')}</TableCell>
                <TableCell>{t('devices.state')}</TableCell>
                <TableCell>{t('devices.point')}</TableCell>
                <TableCell align="right">{t('devices.reads')}</TableCell>
                <TableCell align="right">{t('devices.perMinute')}</TableCell>
                <TableCell>{t('devices.lastRead')}</TableCell>
                <TableCell align="right">{t('devices.drift')}</TableCell>
                <TableCell align="right">{t('devices.battery')}</TableCell>
                <TableCell>{t('devices.enabled')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {list.map((d) => (
                <DeviceLine
                  key={d.id}
                  device={d}
                  timeZone={timeZone}
                  onToggle={(enabled) => toggle.mutate({ body: { enabled }, path: `/devices/${d.id}` })}
                  onApplyDrift={() =>
                    correct.mutate({
                      body: { action: 'applyDrift', reason: t('devices.applyDriftReason') },
                      path: `/devices/${d.id}/clock`,
                    })
                  }
                  applying={correct.isPending}
                />
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      <UnknownChips db={db} races={races} />
    </Box>
  );
}

function DeviceLine({
  device: d,
  timeZone,
  onToggle,
  onApplyDrift,
  applying,
}: {
  device: DeviceRow;
  timeZone?: string | undefined;
  onToggle: (on: boolean) => void;
  /** Applies the measured drift to the device's clock offset (audited on the server). */
  onApplyDrift: () => void;
  applying: boolean;
}) {
  const { t } = useTranslation('raceday');
  const where = d.listenPort
    ? t('devices.listensOn', { port: d.listenPort })
    : d.host
      ? `${d.host}${d.port ? `:${d.port}` : ''}`
      : '';
  const point = d.pointKey ?? Object.values(d.pointMap).join(', ');
  return (
    <TableRow data-testid="device-row" data-device={d.name}>
      <TableCell>
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {d.name}
        </Typography>
        <Typography variant="caption" color="text.secondary">
          {t(`kind.${d.kind}`)} {where && `· ${where}`}
        </Typography>
      </TableCell>
      <TableCell>
        <DeviceStateChip status={d.status} />
        {d.status.reason && d.status.state !== 'connected' && (
          <Typography variant="caption" component="div" color="text.secondary">
            {d.status.reason}
          </Typography>
        )}
      </TableCell>
      <TableCell>{point || '—'}</TableCell>
      <TableCell align="right" data-testid="device-reads">
        {d.status.readsTotal}
      </TableCell>
      <TableCell align="right">{d.status.readsPerMinute}</TableCell>
      <TableCell>{formatClock(d.status.lastReadTimeMs, timeZone)}</TableCell>
      <TableCell align="right" data-testid="device-drift">
        {d.status.driftSource === 'reads' && d.status.driftMs !== null ? (
          <>
            ≈ {formatDrift(d.status.driftMs)}
            <Typography variant="caption" component="div" color="text.secondary">
              {t('devices.driftFromReads')}
            </Typography>
          </>
        ) : (
          formatDrift(d.status.driftMs)
        )}
        {d.status.driftMs !== null && d.status.driftMs !== 0 && (
          <Button
            size="small"
            disabled={applying}
            onClick={onApplyDrift}
            data-testid="device-apply-drift"
            aria-label={t('devices.applyDriftNamed', { name: d.name })}
          >
            {t('devices.applyDrift')}
          </Button>
        )}
        <Typography variant="caption" component="div" color="text.secondary">
          {t('devices.offsetNow', { offset: formatClockOffset(d.clockOffsetMs) })}
        </Typography>
      </TableCell>
      <TableCell align="right">{d.status.battery === null ? '—' : `${d.status.battery}`}</TableCell>
      <TableCell>
        <Switch
          checked={d.enabled}
          onChange={(e) => onToggle(e.target.checked)}
          slotProps={{ input: { 'aria-label': t('devices.enableNamed', { name: d.name }) } }}
        />
      </TableCell>
    </TableRow>
  );
}
