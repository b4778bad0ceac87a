import { mdiMagnify } from '@mdi/js';
import { Box, Button, Chip, InputAdornment, MenuItem, Paper, Stack, TextField } from '@mui/material';
import { type DocumentStatus, documentStatuses } from '@tempora/contracts';
import { useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../components/mdi-icon.tsx';
import { PageError, PageHeader, PageLoading } from '../../../components/page-state.tsx';
import { useConfirmationEvents, useDocuments } from '../../../features/confirmation/api/documents.ts';
import { CreateDocumentDialog } from '../../../features/confirmation/components/create-document-dialog.tsx';
import { DocumentsTable } from '../../../features/confirmation/components/documents-table.tsx';

/** `/confirmation/home` (requireAuth): every registration document the user may see. */
export default function ConfirmationHomePage() {
  const { t } = useTranslation('confirmation');
  const [q, setQ] = useState('');
  const [eventId, setEventId] = useState('');
  const [status, setStatus] = useState<DocumentStatus | ''>('');
  const [creating, setCreating] = useState(false);
  const query = useDeferredValue(q);
  const documents = useDocuments({ q: query, eventId: eventId || undefined, status: status || undefined });
  const events = useConfirmationEvents();
  return (
    <>
      <PageHeader
        title={t('home.heading')}
        crumbs={[[t('title')]]}
        actions={
          <Button variant="contained" onClick={() => setCreating(true)}>
            {t('home.new')}
          </Button>
        }
      />
      <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 } }}>
        <Box
          component="nav"
          aria-label={t('home.byStatus')}
          sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mb: 2 }}
        >
          <Chip
            label={`${t('home.all')} (${Object.values(documents.data?.countsByStatus ?? {}).reduce((s, n) => s + n, 0)})`}
            color={status === '' ? 'primary' : 'default'}
            onClick={() => setStatus('')}
            aria-pressed={status === ''}
          />
          {documentStatuses.map((s) => (
            <Chip
              key={s}
              label={`${t(`status.${s}`)} (${documents.data?.countsByStatus[s] ?? 0})`}
              color={status === s ? 'primary' : 'default'}
              variant={status === s ? 'filled' : 'outlined'}
              onClick={() => setStatus(status === s ? '' : s)}
              aria-pressed={status === s}
            />
          ))}
        </Box>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2 }}>
          <TextField
            label={t('home.search')}
            value={q}
            onChange={(e) => setQ(e.target.value)}
            type="search"
            size="small"
            sx={{ flex: 2 }}
            slotProps={{
              input: {
                startAdornment: (
                  <InputAdornment position="start">
                    <MdiIcon path={mdiMagnify} />
                  </InputAdornment>
                ),
              },
            }}
          />
          <TextField
            select
            label={t('home.event')}
            value={eventId}
            onChange={(e) => setEventId(e.target.value)}
            size="small"
            sx={{ flex: 1, minWidth: 180 }}
          >
            <MenuItem value="">{t('home.all')}</MenuItem>
            {(events.data ?? []).map((ev) => (
              <MenuItem key={ev.id} value={ev.id}>
                {ev.name}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            label={t('home.status')}
            value={status}
            onChange={(e) => setStatus(e.target.value as DocumentStatus | '')}
            size="small"
            sx={{ flex: 1, minWidth: 160 }}
          >
            <MenuItem value="">{t('home.all')}</MenuItem>
            {documentStatuses.map((s) => (
              <MenuItem key={s} value={s}>
                {t(`status.${s}`)}
              </MenuItem>
            ))}
          </TextField>
        </Stack>
        {documents.isPending ? (
          <PageLoading />
        ) : documents.isError ? (
          <PageError error={documents.error} />
        ) : (
          <DocumentsTable documents={documents.data.documents} />
        )}
      </Paper>
      {creating && (
        <CreateDocumentDialog open onClose={() => setCreating(false)} eventId={eventId || undefined} />
      )}
    </>
  );
}
