import { Alert, Box, Button, MenuItem, Stack, TextField, Typography } from '@mui/material';
import type { ChipImportOutcome, RaceSummary, UploadInfo } from '@tempora/contracts';
import { zonedTimeToUtc } from '@tempora/domain';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FileDrop } from '../../../components/file-drop.tsx';
import { useChipImport, useContexts, useResultImport, useUploadFile } from '../api/imports.ts';
import { FilePicker } from './import-wizard.tsx';
import { errorText } from './participant-dialogs.tsx';

const guess = (header: string[], names: RegExp) => header.find((h) => names.test(h.toLowerCase())) ?? '';

/** A chip↔bib file (one or two chips per bib): checked first, then applied to the clean rows. */
export function ChipImport({ eventId, races }: { eventId: string; races: RaceSummary[] }) {
  const { t } = useTranslation('participants');
  const upload = useUploadFile(eventId);
  const chips = useChipImport(eventId);
  const [info, setInfo] = useState<UploadInfo | null>(null);
  const [raceId, setRaceId] = useState(races[0]?.id ?? '');
  const [mapping, setMapping] = useState({ bib: '', chip: '', chip2: '' });
  const [checked, setChecked] = useState<ChipImportOutcome | null>(null);
  const sheet = info?.sheets[0];
  const run = async (apply: boolean) => {
    if (!info) return;
    const out = await chips.mutateAsync({
      uploadId: info.id,
      request: {
        raceId,
        mapping: { bib: mapping.bib, chip: mapping.chip, ...(mapping.chip2 ? { chip2: mapping.chip2 } : {}) },
        apply,
      },
    });
    setChecked(out);
  };
  const column = (field: keyof typeof mapping, required: boolean) => (
    <TextField
      select
      size="small"
      label={`${t(`chips.${field}`)}${required ? ' *' : ''}`}
      value={mapping[field]}
      onChange={(e) => setMapping((m) => ({ ...m, [field]: e.target.value }))}
      sx={{ minWidth: 160 }}
    >
      {!required && <MenuItem value="">{t('import.notMapped')}</MenuItem>}
      {(sheet?.header ?? []).map((h) => (
        <MenuItem key={h} value={h}>
          {h}
        </MenuItem>
      ))}
    </TextField>
  );
  return (
    <Stack spacing={2}>
      <Typography>{t('chips.help')}</Typography>
      <FilePicker
        label={t('chips.choose')}
        busy={upload.isPending}
        onFile={(file) =>
          void upload.mutateAsync(file).then(
            (out) => {
              const header = out.sheets[0]?.header ?? [];
              setInfo(out);
              setChecked(null);
              const chipCols = header.filter((h) => /chip|puce|tag|transponder/.test(h.toLowerCase()));
              setMapping({
                bib: guess(header, /bib|dossard|num/),
                chip: chipCols[0] ?? '',
                chip2: chipCols[1] ?? '',
              });
            },
            () => undefined,
          )
        }
      />
      {upload.isError && <Alert severity="error">{errorText(upload.error)}</Alert>}
      {info && (
        <>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField
              select
              size="small"
              label={t('fields.raceId')}
              value={raceId}
              onChange={(e) => setRaceId(e.target.value)}
              sx={{ minWidth: 160 }}
            >
              {races.map((r) => (
                <MenuItem key={r.id} value={r.id}>
                  {r.name}
                </MenuItem>
              ))}
            </TextField>
            {column('bib', true)}
            {column('chip', true)}
            {column('chip2', false)}
          </Stack>
          <Stack direction="row" spacing={1}>
            <Button
              variant="outlined"
              disabled={!mapping.bib || !mapping.chip || chips.isPending}
              onClick={() => void run(false).catch(() => undefined)}
            >
              {t('chips.check')}
            </Button>
            <Button
              variant="contained"
              disabled={!checked || chips.isPending}
              onClick={() => void run(true).catch(() => undefined)}
            >
              {t('chips.apply')}
            </Button>
          </Stack>
        </>
      )}
      {chips.isError && <Alert severity="error">{errorText(chips.error)}</Alert>}
      {checked && (
        <Box role="status">
          <Alert severity={checked.issues.length ? 'warning' : 'success'}>
            {checked.applied
              ? t('chips.applied', { count: checked.applied, rows: checked.rows })
              : t('chips.checked', { rows: checked.rows, issues: checked.issues.length })}
          </Alert>
          <Box component="ul" aria-label={t('import.problems')} sx={{ maxHeight: 300, overflow: 'auto' }}>
            {checked.issues.map((i) => (
              <li key={`${i.line}-${i.bib}-${i.chip}`}>
                <Typography variant="body2">
                  {i.line ? t('import.line', { line: i.line }) : t('chips.registered')} —{' '}
                  {t(`chips.issue.${i.code}`, { bib: i.bib, chip: i.chip })}
                </Typography>
              </li>
            ))}
          </Box>
        </Box>
      )}
    </Stack>
  );
}

/**
 * A `datetime-local` value read as a wall-clock time in the event's time zone (never the
 * browser's: an organiser abroad still types the start as the event's clocks showed it) → ISO
 * UTC; '' when empty or malformed.
 */
export function gunInZone(local: string, timeZone: string): string {
  const [date, time] = local.split('T');
  if (!date || !time) return '';
  const ms = zonedTimeToUtc(date, time, timeZone);
  return ms === null ? '' : new Date(ms).toISOString();
}

/**
 * A result list into a context of the event: a Boston-format file (the organiser names the race
 * and gives its date, gun and waves) or passings through a column mapping.
 */
export function ResultImport({ eventId, timeZone }: { eventId: string; timeZone: string }) {
  const { t } = useTranslation('participants');
  const contexts = useContexts(eventId);
  const run = useResultImport(eventId);
  const [file, setFile] = useState<File | null>(null);
  const [form, setForm] = useState({
    db: '',
    format: 'boston',
    name: '',
    date: '',
    gun: '',
    waves: '',
    bib: 'Bib',
    time: 'Time',
    point: '',
    defaultPoint: 'finish',
    day: '',
  });
  const set = (field: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [field]: e.target.value }));
  const db = form.db || contexts.data?.[0]?.db || '';
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!file) return;
    const query: Record<string, string> =
      form.format === 'boston'
        ? {
            format: 'boston',
            db,
            name: form.name,
            date: form.date,
            gun: gunInZone(form.gun, timeZone),
            waves: form.waves,
          }
        : {
            format: 'passings',
            db,
            bib: form.bib,
            time: form.time,
            point: form.point,
            defaultPoint: form.defaultPoint,
            day: form.day,
          };
    run.mutate({ file, query });
  };
  const field = (name: keyof typeof form, extra: object = {}) => (
    <TextField size="small" label={t(`results.${name}`)} value={form[name]} onChange={set(name)} {...extra} />
  );
  return (
    <form onSubmit={submit}>
      <Stack spacing={2}>
        <Typography>{t('results.help')}</Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <TextField
            select
            size="small"
            label={t('results.db')}
            value={db}
            onChange={set('db')}
            sx={{ minWidth: 180 }}
            // The value arrives with the contexts: the label must not stay over it.
            slotProps={{ inputLabel: { shrink: !!db } }}
            required
          >
            {(contexts.data ?? []).map((c) => (
              <MenuItem key={c.db} value={c.db}>
                {c.name} ({c.db})
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            size="small"
            label={t('results.format')}
            value={form.format}
            onChange={set('format')}
            sx={{ minWidth: 200 }}
          >
            <MenuItem value="boston">{t('results.boston')}</MenuItem>
            <MenuItem value="passings">{t('results.passings')}</MenuItem>
          </TextField>
        </Stack>
        {form.format === 'boston' ? (
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
            {field('name', { required: true })}
            {field('date', { type: 'date', required: true, slotProps: { inputLabel: { shrink: true } } })}
            {field('gun', {
              type: 'datetime-local',
              required: true,
              helperText: t('results.gunZone', { zone: timeZone }),
              slotProps: { inputLabel: { shrink: true }, htmlInput: { step: 1 } },
            })}
            {field('waves', { helperText: t('results.wavesHelp'), sx: { minWidth: 280 } })}
          </Stack>
        ) : (
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
            {field('bib')}
            {field('time', { required: true })}
            {field('point')}
            {field('defaultPoint')}
            {field('day', { type: 'date', slotProps: { inputLabel: { shrink: true } } })}
          </Stack>
        )}
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
          <FileDrop label={file ? file.name : t('results.choose')} accept=".csv,text/csv" onFile={setFile} />
          <Button type="submit" variant="contained" disabled={!file || !db || run.isPending}>
            {t('results.run')}
          </Button>
        </Stack>
        {run.isError && <Alert severity="error">{errorText(run.error)}</Alert>}
        {run.data && (
          <Box role="status">
            <Alert severity={run.data.refused ? 'warning' : 'success'}>
              {t('results.done', {
                participants: run.data.participants ?? 0,
                passings: run.data.passings,
                refused: run.data.refused,
              })}
            </Alert>
            {run.data.issues.length > 0 && (
              <Box component="ul" aria-label={t('import.problems')} sx={{ maxHeight: 300, overflow: 'auto' }}>
                {run.data.issues.map((i) => (
                  <li key={`${i.line}-${i.message}`}>
                    <Typography variant="body2">
                      {t('import.line', { line: i.line })} — {i.message}
                    </Typography>
                  </li>
                ))}
              </Box>
            )}
          </Box>
        )}
      </Stack>
    </form>
  );
}
