import { mdiRefresh } from '@mdi/js';
import { Box, Button } from '@mui/material';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useReconnectCatchUp } from '../lib/realtime/realtime-provider.tsx';
import { MdiIcon } from './mdi-icon.tsx';

/**
 * A new version of the web app (issue 20). A page loaded before a deploy keeps running its old
 * bundle — for hours on a race-day screen, and the race-day service worker serves the shell it
 * cached when the network fails — while the server speaks the new protocol (an old bundle that
 * does not know `results` bundles or row shifts shows a table that no longer follows). Deploys
 * restart the nodes, so every reconnection (and every 15 minutes) compares the entry script of
 * the running page with that of the index page the server serves now; when they differ, a
 * banner offers a reload (network first: the service worker then serves the new shell).
 */
const CHECK_MS = 15 * 60_000;

/** The entry script (`/assets/index-….js`) an index page names, or null. */
export function entryScriptOf(html: string): string | null {
  const match = /<script[^>]*type="module"[^>]*src="([^"]+)"/.exec(html);
  return match ? new URL(match[1]!, 'http://x').pathname : null;
}

/** The running page's entry script, or null (tests, development without a hashed bundle). */
export function runningEntryScript(doc: Document = document): string | null {
  const script = doc.querySelector<HTMLScriptElement>('script[type="module"][src]');
  return script ? new URL(script.src, 'http://x').pathname : null;
}

/** Whether the server now serves another bundle than the one running. */
export async function newVersionServed(
  running = runningEntryScript(),
  fetchIndex = () => fetch('/', { cache: 'no-store' }).then((r) => (r.ok ? r.text() : '')),
): Promise<boolean> {
  if (!running?.startsWith('/assets/')) return false;
  const served = entryScriptOf(await fetchIndex().catch(() => ''));
  return served !== null && served !== running;
}

/** A banner offering a reload once a new version is deployed; nothing before. `role=status`. */
export function UpdateBanner() {
  const [available, setAvailable] = useState(false);
  const check = useCallback(() => {
    void newVersionServed().then((yes) => yes && setAvailable(true));
  }, []);
  useReconnectCatchUp(check);
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') check();
    }, CHECK_MS);
    return () => clearInterval(timer);
  }, [check]);
  if (!available) return null;
  return <UpdateBannerView />;
}

/** What the banner shows: a reload, en/fr. */
function UpdateBannerView() {
  const { t } = useTranslation('common');
  return (
    <Box
      role="status"
      data-testid="update-banner"
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: 1,
        px: 2,
        py: 0.5,
        fontSize: 14,
        borderBottom: 1,
        borderColor: '#0b5d87',
        bgcolor: '#e8f4fa',
        color: '#0b3d57',
      }}
    >
      {t('update.available')}
      <Button
        size="small"
        startIcon={<MdiIcon path={mdiRefresh} fontSize="small" />}
        onClick={() => window.location.reload()}
      >
        {t('update.reload')}
      </Button>
    </Box>
  );
}
