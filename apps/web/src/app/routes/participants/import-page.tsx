import { Alert, Box, Button, Stack, Tab, Tabs, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams, useSearchParams } from 'react-router';
import { PageError, PageLoading } from '../../../components/page-state.tsx';
import { useConsoleEvent } from '../../../features/console/api/events.ts';
import { useRaces } from '../../../features/participants/api/participants.ts';
import { ImportHistory } from '../../../features/participants/components/import-history.tsx';
import { ImportWizard } from '../../../features/participants/components/import-wizard.tsx';
import { ChipImport, ResultImport } from '../../../features/participants/components/other-imports.tsx';

const TABS = ['participants', 'chips', 'results'] as const;

/**
 * `/console/events/:eventId/participants/import` (requireAuth): participants from CSV/XLSX with a
 * column mapping, chip files, and result lists (`?tab=`).
 */
export default function ImportPage() {
  const { eventId = '' } = useParams();
  const { t } = useTranslation('participants');
  const [params, setParams] = useSearchParams();
  const tab = TABS.find((x) => x === params.get('tab')) ?? 'participants';
  const races = useRaces(eventId);
  // The event's time zone: a result list's gun time is typed as the event's clocks showed it.
  const event = useConsoleEvent(eventId);
  if (races.isPending || event.isPending) return <PageLoading />;
  if (races.isError) return <PageError error={races.error} />;
  if (event.isError) return <PageError error={event.error} />;
  const grid = `/console/events/${encodeURIComponent(eventId)}/participants`;
  return (
    <>
      <Stack direction="row" spacing={1} useFlexGap sx={{ mb: 2, alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography variant="h5" component="h2" sx={{ flexGrow: 1, fontWeight: 600 }}>
          {t('import.title')}
        </Typography>
        <Button component={RouterLink} to={grid} variant="text">
          {t('import.back')}
        </Button>
      </Stack>
      <Tabs
        value={tab}
        onChange={(_e, value: string) => setParams({ tab: value }, { replace: true })}
        variant="scrollable"
        allowScrollButtonsMobile
        aria-label={t('import.title')}
        sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}
      >
        {TABS.map((x) => (
          <Tab key={x} value={x} label={t(`import.tabs.${x}`)} id={`tab-${x}`} aria-controls={`panel-${x}`} />
        ))}
      </Tabs>
      <Box role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
        {tab !== 'results' && !races.data.length && <Alert severity="info">{t('noRace')}</Alert>}
        {tab === 'participants' && races.data.length > 0 && (
          <Stack spacing={4}>
            <ImportWizard eventId={eventId} races={races.data} />
            <ImportHistory eventId={eventId} timeZone={event.data.timeZone} />
          </Stack>
        )}
        {tab === 'chips' && races.data.length > 0 && <ChipImport eventId={eventId} races={races.data} />}
        {tab === 'results' && <ResultImport eventId={eventId} timeZone={event.data.timeZone} />}
      </Box>
    </>
  );
}
