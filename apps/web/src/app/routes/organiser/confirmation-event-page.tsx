import { Box, Button, Divider, Paper, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageError, PageHeader, PageLoading } from '../../../components/page-state.tsx';
import { paths } from '../../../config/paths.ts';
import { useConfirmationEvents, useEventDocuments } from '../../../features/confirmation/api/documents.ts';
import { CreateDocumentDialog } from '../../../features/confirmation/components/create-document-dialog.tsx';
import { DocumentsTable } from '../../../features/confirmation/components/documents-table.tsx';
import { RaceSettingsForm } from '../../../features/confirmation/components/race-settings-form.tsx';
import { formatFees } from '../../../features/confirmation/components/status-chip.tsx';

/** `/confirmation/event/{id}` (requireAuth): one event's documents with totals, and its races' settings. */
export default function ConfirmationEventPage() {
  const { t, i18n } = useTranslation('confirmation');
  const { id = '' } = useParams();
  const data = useEventDocuments(id);
  const events = useConfirmationEvents();
  const [creating, setCreating] = useState(false);
  if (data.isPending) return <PageLoading />;
  if (data.isError) return <PageError error={data.error} />;
  const { event, documents, totals } = data.data;
  const races = events.data?.find((e) => e.id === id)?.races ?? [];
  const figures: [string, string][] = [
    [t('counts.rows'), String(totals.rows)],
    [t('counts.confirmed'), String(totals.confirmed)],
    [t('counts.toFix'), String(totals.toFix)],
    [t('counts.fees'), formatFees(totals.feesCents, i18n.language)],
  ];
  return (
    <>
      <PageHeader
        title={event.name}
        crumbs={[[t('title'), paths.confirmation()], [event.name]]}
        actions={
          <Button variant="contained" onClick={() => setCreating(true)}>
            {t('home.new')}
          </Button>
        }
      />
      <Box
        component="dl"
        aria-label={t('event.totals')}
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: 'repeat(2, 1fr)', sm: 'repeat(4, 1fr)' },
          gap: 2,
          m: 0,
          mb: 2,
        }}
      >
        {figures.map(([label, value]) => (
          <Paper key={label} variant="outlined" sx={{ p: 2 }}>
            <Typography component="dt" variant="body2" color="text.secondary">
              {label}
            </Typography>
            <Typography component="dd" sx={{ m: 0, fontSize: 26, fontWeight: 600 }}>
              {value}
            </Typography>
          </Paper>
        ))}
      </Box>
      <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 }, mb: 2 }}>
        {documents.length ? (
          <DocumentsTable documents={documents} showEvent={false} />
        ) : (
          <Typography>{t('event.noDocuments')}</Typography>
        )}
      </Paper>
      <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 } }}>
        <Typography component="h2" variant="h6">
          {t('event.settings')}
        </Typography>
        {races.map((race, k) => (
          <Box key={race.id}>
            {k > 0 && <Divider />}
            <RaceSettingsForm race={race} />
          </Box>
        ))}
      </Paper>
      {creating && <CreateDocumentDialog open onClose={() => setCreating(false)} eventId={id} />}
    </>
  );
}
