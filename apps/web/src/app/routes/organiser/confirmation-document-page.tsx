import { Box, Tab, Tabs } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Outlet, Link as RouterLink, useLocation, useParams } from 'react-router';
import { PageError, PageHeader, PageLoading } from '../../../components/page-state.tsx';
import { paths } from '../../../config/paths.ts';
import { useDocument } from '../../../features/confirmation/api/documents.ts';
import { StatusChip } from '../../../features/confirmation/components/status-chip.tsx';

/** The document views of spec §2 (children of `/confirmation/document/{id}`). */
export const DOCUMENT_VIEWS = ['home', 'import', 'edit', 'report'] as const;

/** `/confirmation/document/{id}` (requireAuth): one registration document and its views. */
export default function ConfirmationDocumentPage() {
  const { t } = useTranslation('confirmation');
  const { id = '' } = useParams();
  const { pathname } = useLocation();
  const doc = useDocument(id);
  const current = DOCUMENT_VIEWS.find((v) => pathname.endsWith(`/${v}`)) ?? 'home';
  if (doc.isPending) return <PageLoading />;
  if (doc.isError) return <PageError error={doc.error} />;
  const d = doc.data;
  return (
    <>
      <PageHeader
        title={d.title}
        crumbs={[
          [t('title'), paths.confirmation()],
          [d.eventName, paths.confirmationEvent(d.eventId)],
          [d.title],
        ]}
        actions={<StatusChip status={d.status} size="medium" />}
      />
      <Box sx={{ borderBottom: 1, borderColor: 'divider', mb: 2 }}>
        <Tabs value={current} variant="scrollable" allowScrollButtonsMobile aria-label={d.title}>
          {DOCUMENT_VIEWS.map((view) => (
            <Tab
              key={view}
              value={view}
              label={t(`tabs.${view}`)}
              component={RouterLink}
              to={paths.confirmationDocument(id, view)}
            />
          ))}
        </Tabs>
      </Box>
      <Outlet />
    </>
  );
}
