import {
  Alert,
  Box,
  Button,
  FormControlLabel,
  LinearProgress,
  MenuItem,
  Radio,
  RadioGroup,
  Stack,
  Step,
  StepLabel,
  Stepper,
  TextField,
  Typography,
} from '@mui/material';
import { type RaceSummary, requiredParticipantFields, type UploadInfo } from '@tempora/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { FileDrop } from '../../../components/file-drop.tsx';
import { useChannelEvent } from '../../../lib/realtime/realtime-provider.tsx';
import { useCommit, usePreview, useUploadFile } from '../api/imports.ts';
import { type Mapping, MappingFields } from './mapping-fields.tsx';
import { errorText } from './participant-dialogs.tsx';
import { PreviewSection } from './preview-section.tsx';
import { RefusedDownloads } from './refused-downloads.tsx';

/** The imports' file picker: the shared one for CSV or XLSX, with the formats it reads. */
export function FilePicker({
  label,
  onFile,
  busy,
}: {
  label: string;
  onFile(file: File): void;
  busy: boolean;
}) {
  const { t } = useTranslation('participants');
  return (
    <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
      <FileDrop
        label={label}
        accept=".csv,.txt,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        inputTestId="import-file"
        disabled={busy}
        buttonProps={{ variant: 'contained' }}
        onFile={onFile}
      />
      <Typography variant="body2" color="text.secondary">
        {t('import.formats')}
      </Typography>
      {busy && <LinearProgress sx={{ width: 240 }} aria-label={t('import.reading')} />}
    </Stack>
  );
}

/**
 * The participant import (issue 14): file → sheet and column mapping (the organisation's last
 * one, else guessed from the headers) → a preview listing every row's errors and warnings →
 * import of the valid rows or of all (nothing if one has an error), with a progress bar fed by
 * the realtime channel `import-{uploadId}`.
 */
export function ImportWizard({ eventId, races }: { eventId: string; races: RaceSummary[] }) {
  const { t } = useTranslation('participants');
  const upload = useUploadFile(eventId);
  const preview = usePreview(eventId);
  const commit = useCommit(eventId);
  const [info, setInfo] = useState<UploadInfo | null>(null);
  const [sheet, setSheet] = useState('');
  const [raceId, setRaceId] = useState(races[0]?.id ?? '');
  const [mapping, setMapping] = useState<Mapping>({});
  const [dateOrder, setDateOrder] = useState<'dmy' | 'mdy'>('dmy');
  const [mode, setMode] = useState<'valid' | 'all'>('valid');
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  useChannelEvent(info ? `import-${info.id}` : null, 'progress', (data) =>
    setProgress(data as { done: number; total: number }),
  );
  const current = info?.sheets.find((s) => s.name === sheet) ?? info?.sheets[0];
  const step = commit.data ? 3 : preview.data ? 2 : info ? 1 : 0;
  const request = () => ({ sheet: current?.name, raceId, mapping, dateOrder });

  const onFile = async (file: File) => {
    preview.reset();
    commit.reset();
    setProgress(null);
    const out = await upload.mutateAsync(file);
    // The sheet with the most rows is usually the list (a cover page comes first).
    const best = [...out.sheets].sort((a, b) => b.rows - a.rows)[0]!;
    setInfo(out);
    setSheet(best.name);
    setMapping(best.guess);
  };
  const missing = requiredParticipantFields.filter((f) => !mapping[f]);
  return (
    <Stack spacing={3}>
      <Stepper activeStep={step} alternativeLabel sx={{ display: { xs: 'none', sm: 'flex' } }}>
        {(['file', 'mapping', 'preview', 'done'] as const).map((s) => (
          <Step key={s}>
            <StepLabel>{t(`import.steps.${s}`)}</StepLabel>
          </Step>
        ))}
      </Stepper>
      <FilePicker
        label={info ? t('import.another') : t('import.choose')}
        onFile={(f) => void onFile(f).catch(() => undefined)}
        busy={upload.isPending}
      />
      {upload.isError && <Alert severity="error">{errorText(upload.error)}</Alert>}
      {info && current && (
        <Box component="section" aria-labelledby="mapping-title">
          <Typography id="mapping-title" variant="h6" component="h2" sx={{ mb: 1 }}>
            {t('import.mappingTitle', { file: info.fileName, count: current.rows })}
          </Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2 }}>
            {info.sheets.length > 1 && (
              <TextField
                select
                size="small"
                label={t('import.sheet')}
                value={current.name}
                onChange={(e) => {
                  setSheet(e.target.value);
                  setMapping(info.sheets.find((s) => s.name === e.target.value)?.guess ?? {});
                  preview.reset();
                }}
                sx={{ minWidth: 180 }}
              >
                {info.sheets.map((s) => (
                  <MenuItem key={s.name} value={s.name}>
                    {t('import.sheetOption', { name: s.name, count: s.rows })}
                  </MenuItem>
                ))}
              </TextField>
            )}
            <TextField
              select
              size="small"
              label={t('fields.raceId')}
              value={raceId}
              onChange={(e) => setRaceId(e.target.value)}
              sx={{ minWidth: 180 }}
            >
              {races.map((r) => (
                <MenuItem key={r.id} value={r.id}>
                  {r.name}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              select
              size="small"
              label={t('import.dateOrder')}
              value={dateOrder}
              onChange={(e) => setDateOrder(e.target.value as 'dmy' | 'mdy')}
              sx={{ minWidth: 180 }}
            >
              <MenuItem value="dmy">{t('import.dmy')}</MenuItem>
              <MenuItem value="mdy">{t('import.mdy')}</MenuItem>
            </TextField>
          </Stack>
          <MappingFields
            sheet={current}
            mapping={mapping}
            onChange={(field, column) => {
              setMapping((m) => {
                const next = { ...m };
                if (column) next[field] = column;
                else delete next[field];
                return next;
              });
              preview.reset();
            }}
          />
          {missing.length > 0 && (
            <Alert severity="info" sx={{ mt: 2 }}>
              {t('import.mapRequired')}
            </Alert>
          )}
          <Button
            sx={{ mt: 2 }}
            variant="contained"
            disabled={missing.length > 0 || preview.isPending || !raceId}
            onClick={() => preview.mutate({ uploadId: info.id, request: request() })}
          >
            {t('import.preview')}
          </Button>
          {preview.isPending && <LinearProgress sx={{ mt: 1 }} aria-label={t('import.checking')} />}
          {preview.isError && (
            <Alert severity="error" sx={{ mt: 2 }}>
              {errorText(preview.error)}
            </Alert>
          )}
        </Box>
      )}
      {info && preview.data && !commit.data && (
        <PreviewSection preview={preview.data}>
          <RadioGroup
            value={mode}
            onChange={(e) => setMode(e.target.value as 'valid' | 'all')}
            aria-label={t('import.modeLabel')}
          >
            <FormControlLabel
              value="valid"
              control={<Radio />}
              label={t('import.modeValid', { count: preview.data.valid })}
            />
            <FormControlLabel value="all" control={<Radio />} label={t('import.modeAll')} />
          </RadioGroup>
          <Button
            variant="contained"
            disabled={
              commit.isPending || preview.data.valid === 0 || (mode === 'all' && preview.data.invalid > 0)
            }
            onClick={() => commit.mutate({ uploadId: info.id, request: { ...request(), mode } })}
          >
            {t('import.run')}
          </Button>
          {commit.isPending && (
            <Box sx={{ mt: 2 }}>
              <LinearProgress
                variant={progress ? 'determinate' : 'indeterminate'}
                value={progress ? (100 * progress.done) / Math.max(1, progress.total) : 0}
                aria-label={t('import.progress')}
              />
              {progress && (
                <Typography variant="body2" role="status">
                  {t('import.progressText', { done: progress.done, total: progress.total })}
                </Typography>
              )}
            </Box>
          )}
          {commit.isError && (
            <Alert severity="error" sx={{ mt: 2 }}>
              {errorText(commit.error)}
            </Alert>
          )}
        </PreviewSection>
      )}
      {commit.data && (
        <Stack spacing={1.5} data-testid="import-result">
          <Alert
            severity="success"
            role="status"
            action={
              <Button
                component={RouterLink}
                to={`/console/events/${encodeURIComponent(eventId)}/participants`}
                color="inherit"
              >
                {t('import.toGrid')}
              </Button>
            }
          >
            {t('import.done', { count: commit.data.imported, skipped: commit.data.skipped })}
          </Alert>
          {commit.data.skipped > 0 && (
            <Box component="section" aria-labelledby="refused-title">
              <Typography id="refused-title" variant="subtitle1" component="h2" sx={{ mb: 1 }}>
                {t('import.refusedTitle', { count: commit.data.skipped })}
              </Typography>
              <RefusedDownloads eventId={eventId} importId={commit.data.importId} />
            </Box>
          )}
        </Stack>
      )}
    </Stack>
  );
}
