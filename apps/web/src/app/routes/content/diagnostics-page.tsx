import { Alert, Button, Chip, Paper, Table, TableBody, TableCell, TableRow, Typography } from '@mui/material';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/page-state.tsx';
import { PROBES, type Probe, probeApi } from '../../../features/content/api/probes.ts';
import { currentEnvironment } from '../../../lib/api-client.ts';
import { useConnectionState, useDemandRealtime } from '../../../lib/realtime/realtime-provider.tsx';
import { urlParam } from '../../../lib/url-params.ts';

/**
 * `/test`: diagnostics for support calls — the configuration in use (environment, UI variant,
 * base URLs, realtime host), API reachability with round-trip times, the live connection, the
 * versions. No secrets: the environment configuration holds none (keys there are public).
 */
export default function DiagnosticsPage() {
  const { t, i18n } = useTranslation();
  // The page reports the live connection, so it starts one (realtime otherwise starts on demand).
  useDemandRealtime(true);
  const realtime = useConnectionState();
  const env = currentEnvironment();
  const [probes, setProbes] = useState<Record<string, Probe>>({});
  const run = useCallback(async () => {
    setProbes(await probeApi());
  }, []);
  useEffect(() => {
    void run();
  }, [run]);
  const rows: [string, string][] = [
    [t('diagnostics.env'), urlParam('env') ?? 'prod'],
    [t('diagnostics.ui'), urlParam('ui') ?? 'acn'],
    [t('diagnostics.language'), i18n.language],
    ['apiUrlBase', env.apiUrlBase],
    ['eventsApiUrlBase', env.eventsApiUrlBase],
    ['resultsApiUrlBase', env.resultsApiUrlBase],
    ['userApiUrlBase', env.userApiUrlBase],
    ['confirmationApiUrlBase', env.confirmationApiUrlBase],
    ['trackingApiUrlBase', env.trackingApiUrlBase],
    [
      t('diagnostics.realtimeHost'),
      `${env.realtime.host ?? window.location.hostname}:${env.realtime.port ?? (window.location.port || '443')} (${env.realtime.cluster})`,
    ],
    [t('diagnostics.mapKey'), env.mapKey ? t('diagnostics.set') : t('diagnostics.unset')],
    [
      t('diagnostics.version'),
      `Tempora ${import.meta.env.VITE_APP_VERSION ?? '0.1.0'} · ${navigator.userAgent.split(' ').slice(-2).join(' ')}`,
    ],
  ];
  return (
    <>
      <PageHeader title={t('pages.diagnostics')} crumbs={[[t('pages.diagnostics')]]} />
      <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
        <Typography variant="h6" component="h2" gutterBottom>
          {t('diagnostics.reachability')}
        </Typography>
        <Table size="small" aria-label={t('diagnostics.reachability')}>
          <TableBody>
            {PROBES.map((name) => {
              const p = probes[name];
              return (
                <TableRow key={name}>
                  <TableCell component="th" scope="row">
                    {t(`diagnostics.probe.${name}`)}
                  </TableCell>
                  <TableCell>
                    {p ? (
                      <Chip
                        size="small"
                        color={p.ok ? 'success' : 'error'}
                        label={p.ok ? 'OK' : t('diagnostics.failed')}
                      />
                    ) : (
                      '…'
                    )}
                  </TableCell>
                  <TableCell align="right">{p ? `${p.ms} ms` : ''}</TableCell>
                  <TableCell>{p?.detail}</TableCell>
                </TableRow>
              );
            })}
            <TableRow>
              <TableCell component="th" scope="row">
                {t('diagnostics.realtime')}
              </TableCell>
              <TableCell>
                <Chip
                  size="small"
                  color={realtime.state === 'connected' ? 'success' : realtime.lost ? 'error' : 'default'}
                  label={realtime.state}
                />
              </TableCell>
              <TableCell />
              <TableCell />
            </TableRow>
          </TableBody>
        </Table>
        <Button sx={{ mt: 1 }} onClick={() => void run()}>
          {t('diagnostics.again')}
        </Button>
      </Paper>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Typography variant="h6" component="h2" gutterBottom>
          {t('diagnostics.configuration')}
        </Typography>
        <Table size="small" aria-label={t('diagnostics.configuration')}>
          <TableBody>
            {rows.map(([k, v]) => (
              <TableRow key={k}>
                <TableCell component="th" scope="row" sx={{ width: '40%' }}>
                  {k}
                </TableCell>
                <TableCell sx={{ wordBreak: 'break-all' }}>{v}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        <Alert severity="info" sx={{ mt: 2 }}>
          {t('diagnostics.noSecrets')}
        </Alert>
      </Paper>
    </>
  );
}
