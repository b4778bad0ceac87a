import { Tab, Tabs } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Outlet, Link as RouterLink, useLocation, useParams } from 'react-router';
import { PageHeader } from '../../../components/page-state.tsx';

/** The document views of spec §2 (children of `/confirmation/document/{id}`). */
export const DOCUMENT_VIEWS = ['home', 'edit', 'import', 'report'] as const;

/** `/confirmation/document/{id}` (requireAuth): one registration document and its views. */
export default function ConfirmationDocumentPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const { pathname } = useLocation();
  const current = DOCUMENT_VIEWS.find((v) => pathname.endsWith(`/${v}`)) ?? 'home';
  const base = `/confirmation/document/${encodeURIComponent(id)}`;
  return (
    <>
      <PageHeader
        title={`${t('pages.document')} ${id}`}
        crumbs={[[t('pages.confirmation'), '/confirmation/home'], [id]]}
      />
      <Tabs value={current} sx={{ mb: 2 }} variant="scrollable" allowScrollButtonsMobile>
        {DOCUMENT_VIEWS.map((view) => (
          <Tab
            key={view}
            value={view}
            label={t(`pages.documentViews.${view}`)}
            component={RouterLink}
            to={`${base}/${view}`}
          />
        ))}
      </Tabs>
      <Outlet />
    </>
  );
}
