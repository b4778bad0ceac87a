import { mdiCertificateOutline } from '@mdi/js';
import { Alert, Box, Button } from '@mui/material';
import { type MouseEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../components/mdi-icon.tsx';
import { downloadFile } from '../../../lib/download.ts';
import { preloadNamespaces } from '../../../lib/i18n.ts';
import { certificatePath, certificateUrl } from '../api/certificate.ts';

// Its label's namespace comes with the page, not after the card (which would show the loader again).
preloadNamespaces('exports');

/**
 * A finisher's certificate (PDF in the page's language), on the tracking card and the detail
 * page; nothing before the finish. A click fetches the PDF and saves it through the one download
 * helper (issue 43: a plain `download` link gave no download, tab or navigation in some
 * browsers), saying so while it comes and when it fails; the link stays for "open in a new tab".
 */
export function CertificateButton({ trackingKey, status }: { trackingKey: string; status: string }) {
  const { t, i18n } = useTranslation('exports');
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  if (status !== 'finished') return null;
  const lng = i18n.language === 'en' ? 'en' : 'fr';
  const handleClick = (e: MouseEvent) => {
    // A modified click (new tab, new window) keeps the browser's own way.
    if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    setBusy(true);
    setFailed(false);
    downloadFile('apiUrlBase', certificatePath(trackingKey, lng), { fallback: 'certificate.pdf' })
      .catch(() => setFailed(true))
      .finally(() => setBusy(false));
  };
  return (
    <>
      <Button
        variant="outlined"
        component="a"
        href={certificateUrl(trackingKey, lng)}
        download
        onClick={handleClick}
        aria-busy={busy}
        disabled={busy}
        startIcon={<MdiIcon path={mdiCertificateOutline} fontSize="small" />}
        data-testid="certificate-button"
      >
        {t('certificate.download')}
      </Button>
      {failed && (
        <Box sx={{ flexBasis: '100%' }}>
          <Alert severity="error" role="alert">
            {t('certificate.failed')}
          </Alert>
        </Box>
      )}
    </>
  );
}
