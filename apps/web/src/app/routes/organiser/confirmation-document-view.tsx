import { Alert } from '@mui/material';
import { useTranslation } from 'react-i18next';

/** A view of a document (`edit`, `home`, `import`, `report`); its content comes with its issue. */
export default function ConfirmationDocumentView() {
  const { t } = useTranslation();
  return <Alert severity="info">{t('state.comingSoon')}</Alert>;
}
