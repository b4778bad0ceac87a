import {
  Alert,
  Box,
  Button,
  LinearProgress,
  MenuItem,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { type DocumentDetail, type RowField, rowFields } from '@tempora/contracts';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FileDrop } from '../../../components/file-drop.tsx';
import { paths } from '../../../config/paths.ts';
import { confirmationApi, uploadFile, useConfirmationEvents, useRefreshDocument } from '../api/documents.ts';
import { guessMapping } from './guess-mapping.ts';
import { VersionDiffView } from './version-diff.tsx';

type Mapping = Partial<Record<RowField, string>>;

/** `document/{id}/import`: upload a CSV/XLSX (or a new version) with progress, pick the sheet, map the columns. */
export function ImportView({ document: d }: { document: DocumentDetail }) {
  const { t } = useTranslation('confirmation');
  const navigate = useNavigate();
  const refresh = useRefreshDocument(d.id);
  const events = useConfirmationEvents();
  const races = events.data?.find((e) => e.id === d.eventId)?.races ?? [];
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [sheet, setSheet] = useState(d.sheet ?? '');
  const [mapping, setMapping] = useState<Mapping>({});
  const [defaultRaceId, setDefaultRaceId] = useState(d.defaultRaceId ?? '');
  const locked = ['closed', 'rejected'].includes(d.status);

  const headers = d.sheetHeaders[sheet] ?? d.headers;
  useEffect(() => {
    setSheet(d.sheet ?? '');
  }, [d.sheet]);
  useEffect(() => {
    const known = Object.keys(d.mapping).length ? d.mapping : d.suggestedMapping;
    const usable = Object.fromEntries(Object.entries(known).filter(([, h]) => headers.includes(h as string)));
    setMapping(Object.keys(usable).length ? usable : guessMapping(headers));
  }, [d.mapping, d.suggestedMapping, headers]);

  async function handleUpload(e: FormEvent) {
    e.preventDefault();
    if (!file) return;
    setError(null);
    setProgress(0);
    try {
      await uploadFile(d.id, file, setProgress);
      setProgress(1);
      setFile(null);
      refresh();
    } catch (err) {
      setError(t('errors.generic', { message: (err as Error).message }));
    } finally {
      setProgress(null);
    }
  }

  async function handleMap(e: FormEvent) {
    e.preventDefault();
    setError(null);
    setProgress(0.5);
    try {
      const clean = Object.fromEntries(Object.entries(mapping).filter(([, h]) => h)) as Mapping;
      await confirmationApi.setMapping(d.id, { sheet, mapping: clean, defaultRaceId: defaultRaceId || null });
      refresh();
      navigate(paths.confirmationDocument(d.id, 'edit'));
    } catch (err) {
      setError(t('errors.generic', { message: (err as Error).message }));
    } finally {
      setProgress(null);
    }
  }

  return (
    <Stack spacing={2}>
      {error && <Alert severity="error">{error}</Alert>}
      <Paper variant="outlined" component="form" onSubmit={handleUpload} sx={{ p: { xs: 1.5, sm: 2 } }}>
        <Typography component="h2" variant="h6" sx={{ mb: 1 }}>
          {d.version ? t('import.newVersion') : t('import.file')}
        </Typography>
        {d.version > 0 && (
          <Typography sx={{ mb: 1 }}>{t('import.current', { version: d.version })}</Typography>
        )}
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
          <FileDrop
            label={t('import.choose')}
            inputLabel={t('import.file')}
            accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            disabled={locked}
            file={file}
            onFile={setFile}
            buttonProps={{ sx: { flexGrow: { xs: 1, sm: 0 } } }}
            sx={{ flex: 1 }}
          />
          <Button type="submit" variant="contained" disabled={!file || progress !== null || locked}>
            {progress !== null ? t('import.uploading') : t('import.upload')}
          </Button>
        </Stack>
        {progress !== null && (
          <LinearProgress
            variant={progress > 0 && progress < 1 ? 'determinate' : 'indeterminate'}
            value={progress * 100}
            aria-label={t('import.progress')}
            sx={{ mt: 2 }}
          />
        )}
      </Paper>
      {d.diff && <VersionDiffView diff={d.diff} />}
      {d.version > 0 && (
        <Paper variant="outlined" component="form" onSubmit={handleMap} sx={{ p: { xs: 1.5, sm: 2 } }}>
          <Typography component="h2" variant="h6">
            {t('import.mapping')}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {t('import.mappingHelp')}
          </Typography>
          <Box
            sx={{
              display: 'grid',
              gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', md: 'repeat(3, 1fr)' },
              gap: 2,
            }}
          >
            <TextField
              select
              size="small"
              label={t('import.sheet')}
              value={sheet}
              onChange={(e) => setSheet(e.target.value)}
            >
              {d.sheets.map((s) => (
                <MenuItem key={s} value={s}>
                  {s}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              select
              size="small"
              label={t('import.defaultRace')}
              value={defaultRaceId}
              onChange={(e) => setDefaultRaceId(e.target.value)}
            >
              <MenuItem value="">{t('create.noRace')}</MenuItem>
              {races.map((r) => (
                <MenuItem key={r.id} value={r.id}>
                  {r.name}
                </MenuItem>
              ))}
            </TextField>
            {rowFields.map((field) => (
              <TextField
                key={field}
                select
                size="small"
                label={t(`fields.${field}`)}
                value={mapping[field] ?? ''}
                onChange={(e) => setMapping((m) => ({ ...m, [field]: e.target.value }))}
              >
                <MenuItem value="">{t('import.notMapped')}</MenuItem>
                {headers.map((h) => (
                  <MenuItem key={h} value={h}>
                    {h}
                  </MenuItem>
                ))}
              </TextField>
            ))}
          </Box>
          <Button type="submit" variant="contained" sx={{ mt: 2 }} disabled={locked || progress !== null}>
            {t('import.apply')}
          </Button>
          {progress !== null && <LinearProgress aria-label={t('import.progress')} sx={{ mt: 2 }} />}
        </Paper>
      )}
    </Stack>
  );
}
