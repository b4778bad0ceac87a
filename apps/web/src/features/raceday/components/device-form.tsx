import { Alert, Box, Button, MenuItem, Paper, TextField, Typography } from '@mui/material';
import { formatClockOffset, parseClockOffset } from '@tempora/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TimeZoneField } from '../../../components/time-zone-field.tsx';
import { ApiError, fieldError } from '../../../lib/api-client.ts';
import { pointName } from '../../../lib/point-name.ts';
import {
  CONNECTOR_KINDS,
  type ConnectorKind,
  type RacedayPoint,
  useRacedayMutation,
} from '../api/raceday.ts';

/** How the device's chip codes are read (the server's CHIP_FORMATS). */
const CHIP_FORMATS = ['as-is', 'strip-zeros', 'epc-bib'] as const;
/** Protocols that send the device's wall clock: its time zone applies. */
const WALL_CLOCK: ConnectorKind[] = ['raceresult', 'wiclax', 'mylaps', 'chronotrack'];
const CLIENTS: ConnectorKind[] = ['raceresult', 'wiclax'];
const LISTENERS: ConnectorKind[] = ['mylaps', 'chronotrack'];
/** Where a device may be is the operator's choice (issue 25): these refusals are explained. */
const REFUSALS = ['DEVICE_ADDRESS_REFUSED', 'LISTEN_PORT_REFUSED', 'LISTEN_PORT_TAKEN'] as const;

/** `vendor=point` lines → a point map. */
function parseMap(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split(/\n|,/)) {
    const [from, to] = line.split('=').map((s) => s.trim());
    if (from && to) out[from] = to;
  }
  return out;
}

/** Adds a device and its connector; its key is shown once. */
export function DeviceForm({
  db,
  points,
  onClose,
}: {
  db: string;
  points: RacedayPoint[];
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation('raceday');
  const [kind, setKind] = useState<ConnectorKind>('raceresult');
  const [name, setName] = useState('');
  const [pointKey, setPointKey] = useState('');
  const [host, setHost] = useState('');
  const [port, setPort] = useState(kind === 'raceresult' ? '3601' : '');
  const [listenPort, setListenPort] = useState('');
  /** Typed as a signed h:mm:ss.s (issue 29), sent in ms. */
  const [offset, setOffset] = useState(formatClockOffset(0));
  const offsetMs = offset.trim() ? parseClockOffset(offset) : 0;
  const [map, setMap] = useState('');
  const [timeZone, setTimeZone] = useState('');
  const [chipFormat, setChipFormat] = useState<(typeof CHIP_FORMATS)[number]>('as-is');
  const create = useRacedayMutation<Record<string, unknown>, { id: string; key: string }>(db, '/devices');
  const error = create.error instanceof ApiError ? create.error : null;
  /** A field's translated error on the field itself (issue 29), else nothing. */
  const fe = (name: string, help?: string) => {
    const message = fieldError(create.error, name);
    return message ? { error: true, helperText: message } : help ? { helperText: help } : {};
  };
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (offsetMs === null) return;
    create.mutate({
      body: {
        name,
        kind,
        pointKey: pointKey || null,
        host: CLIENTS.includes(kind) ? host || null : null,
        port: CLIENTS.includes(kind) && port ? Number(port) : null,
        listenPort: LISTENERS.includes(kind) && listenPort ? Number(listenPort) : null,
        clockOffsetMs: offsetMs,
        timeZone: WALL_CLOCK.includes(kind) && timeZone ? timeZone : null,
        chipFormat,
        pointMap: parseMap(map),
      },
    });
  };
  if (create.data)
    return (
      <Alert severity="success" onClose={onClose} role="status">
        <Typography variant="body2">{t('devices.created')}</Typography>
        <Typography
          component="code"
          sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}
          data-testid="device-key"
        >
          {create.data.key}
        </Typography>
      </Alert>
    );
  return (
    <Paper
      variant="outlined"
      component="form"
      onSubmit={submit}
      sx={{ p: 2, display: 'grid', gap: 2, gridTemplateColumns: { sm: '1fr 1fr' } }}
    >
      <TextField
        select
        label={t('devices.kind')}
        value={kind}
        onChange={(e) => setKind(e.target.value as ConnectorKind)}
        size="small"
      >
        {CONNECTOR_KINDS.map((k) => (
          <MenuItem key={k} value={k}>
            {t(`kind.${k}`)}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        label={t('devices.name')}
        value={name}
        onChange={(e) => setName(e.target.value)}
        required
        size="small"
        {...fe('name')}
      />
      <TextField
        select
        label={t('devices.point')}
        value={pointKey}
        onChange={(e) => setPointKey(e.target.value)}
        size="small"
        {...fe('pointKey')}
      >
        <MenuItem value="">{t('devices.pointFromMap')}</MenuItem>
        {points.map((p) => (
          <MenuItem key={p.key} value={p.key}>
            {pointName(p, i18n.language)}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        label={t('devices.offset')}
        value={offset}
        onChange={(e) => setOffset(e.target.value)}
        onBlur={() => {
          if (offsetMs !== null) setOffset(formatClockOffset(offsetMs));
        }}
        size="small"
        slotProps={{ htmlInput: { spellCheck: false, 'data-testid': 'device-offset' } }}
        {...(offsetMs === null
          ? { error: true, helperText: t('devices.offsetInvalid') }
          : fe('clockOffsetMs', t('devices.offsetHelp')))}
      />
      {CLIENTS.includes(kind) && (
        <>
          <TextField
            label={t('devices.host')}
            value={host}
            onChange={(e) => setHost(e.target.value)}
            size="small"
            required
            {...fe('host')}
          />
          <TextField
            label={t('devices.port')}
            value={port}
            onChange={(e) => setPort(e.target.value)}
            size="small"
            type="number"
            {...fe('port')}
          />
        </>
      )}
      {LISTENERS.includes(kind) && (
        <TextField
          label={t('devices.listenPort')}
          value={listenPort}
          onChange={(e) => setListenPort(e.target.value)}
          size="small"
          type="number"
          required
          {...fe('listenPort')}
        />
      )}
      {WALL_CLOCK.includes(kind) && (
        <TimeZoneField
          optional
          size="small"
          value={timeZone}
          onChange={setTimeZone}
          label={t('devices.timeZone')}
          help={t('devices.timeZoneHelp')}
          error={fieldError(create.error, 'timeZone') || undefined}
        />
      )}
      <TextField
        select
        label={t('devices.chipFormat')}
        value={chipFormat}
        onChange={(e) => setChipFormat(e.target.value as (typeof CHIP_FORMATS)[number])}
        size="small"
      >
        {CHIP_FORMATS.map((f) => (
          <MenuItem key={f} value={f}>
            {t(`devices.chipFormats.${f}`)}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        label={t('devices.pointMap')}
        value={map}
        onChange={(e) => setMap(e.target.value)}
        size="small"
        multiline
        minRows={2}
        {...fe('pointMap', t('devices.pointMapHelp'))}
        sx={{ gridColumn: { sm: '1 / -1' } }}
      />
      {error && (
        <Alert severity="error" sx={{ gridColumn: { sm: '1 / -1' } }}>
          {(REFUSALS as readonly string[]).includes(error.code)
            ? `${t(`devices.refused.${error.code as (typeof REFUSALS)[number]}`)} ${
                Object.values(error.fieldErrors).flat().join(' · ') || error.message
              }`
            : Object.keys(error.fieldErrors).length
              ? t('devices.checkFields')
              : t(`errors.${error.code}`, { defaultValue: error.message })}
        </Alert>
      )}
      <Box sx={{ display: 'flex', gap: 1, gridColumn: { sm: '1 / -1' } }}>
        <Button type="submit" variant="contained" disabled={create.isPending}>
          {t('devices.save')}
        </Button>
        <Button onClick={onClose}>{t('common.cancel')}</Button>
      </Box>
    </Paper>
  );
}
