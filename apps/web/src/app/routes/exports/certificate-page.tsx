import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageError, PageHeader, PageLoading } from '../../../components/page-state.tsx';
import { paths } from '../../../config/paths.ts';
import { useEvent } from '../../../features/content/api/events.ts';
import { useCertificateTemplate } from '../../../features/exports/api/certificate.ts';
import { CertificateDesigner } from '../../../features/exports/components/certificate-designer.tsx';
import { ExportsNav } from '../../../features/exports/components/exports-nav.tsx';

/** `/console/events/{eventId}/certificate`: the finisher certificate designer (organisers). */
export default function CertificatePage() {
  const { eventId = '' } = useParams();
  const { t } = useTranslation('exports');
  const event = useEvent(eventId);
  const info = useCertificateTemplate(eventId);
  const name = event.data?.name ?? eventId;
  return (
    <>
      <PageHeader
        title={t('designer.title')}
        crumbs={[[name, paths.eventHome(eventId)], [t('designer.title')]]}
      />
      <ExportsNav eventId={eventId} />
      {info.isPending && <PageLoading />}
      {info.isError && <PageError error={info.error} />}
      {info.data && <CertificateDesigner eventId={eventId} />}
    </>
  );
}
