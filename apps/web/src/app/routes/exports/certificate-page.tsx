import { Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageError, PageLoading } from '../../../components/page-state.tsx';
import { useCertificateTemplate } from '../../../features/exports/api/certificate.ts';
import { CertificateDesigner } from '../../../features/exports/components/certificate-designer.tsx';

/** `/console/events/{eventId}/certificate`: the finisher certificate designer (organisers). */
export default function CertificatePage() {
  const { eventId = '' } = useParams();
  const { t } = useTranslation('exports');
  const info = useCertificateTemplate(eventId);
  return (
    <>
      <Typography variant="h5" component="h2" sx={{ mb: 2 }}>
        {t('designer.title')}
      </Typography>
      {info.isPending && <PageLoading />}
      {info.isError && <PageError error={info.error} />}
      {info.data && <CertificateDesigner eventId={eventId} />}
    </>
  );
}
