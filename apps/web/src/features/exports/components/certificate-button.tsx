import { mdiCertificateOutline } from '@mdi/js';
import { Button } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../components/mdi-icon.tsx';
import { preloadNamespaces } from '../../../lib/i18n.ts';
import { certificateUrl } from '../api/certificate.ts';

// Its label's namespace comes with the page, not after the card (which would show the loader again).
preloadNamespaces('exports');

/**
 * A finisher's certificate (PDF in the page's language), on the tracking card and the detail
 * page; nothing before the finish.
 */
export function CertificateButton({ trackingKey, status }: { trackingKey: string; status: string }) {
  const { t, i18n } = useTranslation('exports');
  if (status !== 'finished') return null;
  const lng = i18n.language === 'en' ? 'en' : 'fr';
  return (
    <Button
      variant="outlined"
      component="a"
      href={certificateUrl(trackingKey, lng)}
      download
      startIcon={<MdiIcon path={mdiCertificateOutline} fontSize="small" />}
    >
      {t('certificate.download')}
    </Button>
  );
}
