import { useLocation, useParams } from 'react-router';
import { PageError, PageLoading } from '../../../components/page-state.tsx';
import { useDocument } from '../../../features/confirmation/api/documents.ts';
import { DocumentHome } from '../../../features/confirmation/components/document-home.tsx';
import { DocumentReportView } from '../../../features/confirmation/components/document-report.tsx';
import { EditView } from '../../../features/confirmation/components/edit-view.tsx';
import { ImportView } from '../../../features/confirmation/components/import-view.tsx';

/** A view of a document: `home` (summary, history), `import`, `edit` (grid) or `report`. */
export default function ConfirmationDocumentView() {
  const { id = '' } = useParams();
  const { pathname } = useLocation();
  const doc = useDocument(id);
  if (doc.isPending) return <PageLoading />;
  if (doc.isError) return <PageError error={doc.error} />;
  const view = pathname.split('/').pop();
  if (view === 'import') return <ImportView document={doc.data} />;
  if (view === 'edit') return <EditView document={doc.data} />;
  if (view === 'report') return <DocumentReportView document={doc.data} />;
  return <DocumentHome document={doc.data} />;
}
