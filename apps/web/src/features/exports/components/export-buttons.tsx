import { mdiDownload } from '@mdi/js';
import { Alert, Button, CircularProgress, Menu, MenuItem, Snackbar } from '@mui/material';
import { memo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../components/mdi-icon.tsx';
import { downloadExport, type ExportRequest, useExportAccess } from '../api/exports.ts';

/** What the menu offers. */
const CHOICES: { key: string; request: Pick<ExportRequest, 'format' | 'sep' | 'sections'> }[] = [
  { key: 'csvSemicolon', request: { format: 'csv', sep: ';' } },
  { key: 'csvComma', request: { format: 'csv', sep: ',' } },
  { key: 'xlsx', request: { format: 'xlsx' } },
  { key: 'pdf', request: { format: 'pdf' } },
  { key: 'pdfByCategory', request: { format: 'pdf', sections: 'category' } },
];

/**
 * The report page's download menu (issue 16): CSV, Excel, printable PDF of the report as shown —
 * the search typed applied. Shown to spectators when the organiser allows it, always to organisers.
 */
/** Memoised: the report's rows re-render its page as transitions, without this menu (issue 28). */
export const ExportButtons = memo(function ExportButtons(props: {
  eventId: string;
  group: string;
  report: string;
  query: string;
}) {
  const { t, i18n } = useTranslation('exports');
  const access = useExportAccess(props.eventId);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  if (!access.data || !(access.data.spectatorExports || access.data.organiser)) return null;
  const lng = i18n.language === 'en' ? 'en' : 'fr';
  async function handleChoose(request: (typeof CHOICES)[number]['request']) {
    setAnchor(null);
    setBusy(true);
    try {
      await downloadExport({ ...props, ...request, q: props.query, lng });
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  }
  return (
    <>
      <Button
        variant="outlined"
        size="small"
        onClick={(e) => setAnchor(e.currentTarget)}
        disabled={busy}
        startIcon={busy ? <CircularProgress size={16} /> : <MdiIcon path={mdiDownload} fontSize="small" />}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        aria-controls={anchor ? 'export-menu' : undefined}
      >
        {busy ? t('preparing') : t('download')}
      </Button>
      <Menu id="export-menu" anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        {CHOICES.map((c) => (
          <MenuItem key={c.key} onClick={() => void handleChoose(c.request)}>
            {t(`format.${c.key}`)}
          </MenuItem>
        ))}
      </Menu>
      <Snackbar open={failed} autoHideDuration={6000} onClose={() => setFailed(false)}>
        <Alert severity="error" onClose={() => setFailed(false)}>
          {t('failed')}
        </Alert>
      </Snackbar>
    </>
  );
});
