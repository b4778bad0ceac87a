import { useTranslation } from 'react-i18next';
import { FullPageMessage } from '../../components/full-page-message.tsx';

/** The catch-all route (spec §2, blank layout): a real "page not found" with a way home. */
export default function NotFoundPage() {
  const { t } = useTranslation();
  return <FullPageMessage code="404" title={t('notFound.title')} text={t('notFound.text')} />;
}
