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
  // The page's own words are a namespace of their own, out of every page's first JavaScript.
  const { t, i18n } = useTranslation('diagnostics');
  const tc = useTranslation().t;
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
    [t('env'), urlParam('env') ?? 'prod'],
    [t('ui'), urlParam('ui') ?? 'acn'],
    [t('language'), i18n.language],
    ['apiUrlBase', env.apiUrlBase],
    ['eventsApiUrlBase', env.eventsApiUrlBase],
    ['resultsApiUrlBase', env.resultsApiUrlBase],
    ['userApiUrlBase', env.userApiUrlBase],
    ['confirmationApiUrlBase', env.confirmationApiUrlBase],
    ['trackingApiUrlBase', env.trackingApiUrlBase],
    [
      t('realtimeHost'),
      `${env.realtime.host ?? window.location.hostname}:${env.realtime.port ?? (window.location.port || '443')} (${env.realtime.cluster})`,
    ],
    [t('mapKey'), env.mapKey ? t('set') : t('unset')],
    [
      t('version'),
      `Tempora ${import.meta.env.VITE_APP_VERSION ?? '0.1.0'} · ${navigator.userAgent.split(' ').slice(-2).join(' ')}`,
    ],
  ];
  return (
    <>
      <PageHeader title={tc('pages.diagnostics')} crumbs={[[tc('pages.diagnostics')]]} />
      <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
        <Typography variant="h6" component="h2" gutterBottom>
          {t('reachability')}
        </Typography>
        <Table size="small" aria-label={t('reachability')}>
          <TableBody>
            {PROBES.map((name) => {
              const p = probes[name];
              return (
                <TableRow key={name}>
                  <TableCell component="th" scope="row">
                    {t(`probe.${name}`)}
                  </TableCell>
                  <TableCell>
                    {p ? (
                      <Chip
                        size="small"
                        color={p.ok ? 'success' : 'error'}
                        label={p.ok ? 'OK' : t('failed')}
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
                {t('realtime')}
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
          {t('again')}
        </Button>
      </Paper>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Typography variant="h6" component="h2" gutterBottom>
          {t('configuration')}
        </Typography>
        <Table size="small" aria-label={t('configuration')}>
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
          {t('noSecrets')}
        </Alert>
      </Paper>
    </>
  );
}
