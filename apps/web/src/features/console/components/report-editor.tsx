import { mdiArrowDown, mdiArrowUp, mdiChevronUp, mdiDelete, mdiPencil } from '@mdi/js';
import {
  Autocomplete,
  Box,
  Button,
  Checkbox,
  Chip,
  FormControlLabel,
  IconButton,
  Paper,
  Stack,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  defaultReportFields,
  type ReportDefinitionView,
  type ReportField,
  reportFields,
} from '@tempora/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../components/mdi-icon.tsx';
import { deleteReport, updateReport } from '../api/races.ts';
import { announceSaved, fieldError, SaveError } from './form-state.tsx';

/** One report definition: names in both languages, columns, shown or hidden; moved up/down. */
export function ReportEditor({
  raceId,
  report,
  editable,
  first,
  last,
  onMove,
  selected,
  onSelect,
}: {
  raceId: string;
  report: ReportDefinitionView;
  editable: boolean;
  first: boolean;
  last: boolean;
  onMove: (by: number) => void;
  /** Selected for a bulk show/hide (issue 29); undefined: no selection box. */
  selected?: boolean;
  onSelect?: (on: boolean) => void;
}) {
  const { t, i18n } = useTranslation('console');
  const client = useQueryClient();
  const [name, setName] = useState(report.name);
  const [columns, setColumns] = useState<ReportField[]>(
    report.columns ?? (defaultReportFields[report.kind] as ReportField[]),
  );
  const done = () => client.invalidateQueries({ queryKey: ['console', 'race', raceId, 'reports'] });
  const save = useMutation({
    mutationFn: (patch: Parameters<typeof updateReport>[2]) => updateReport(raceId, report.key, patch),
    onSuccess: () => {
      announceSaved();
      return done();
    },
  });
  const remove = useMutation({ mutationFn: () => deleteReport(raceId, report.key), onSuccess: done });
  const filters = Object.entries(report.filter).filter(([, v]) => v !== undefined);
  const [open, setOpen] = useState(false);
  const lng = i18n.language === 'en' ? 'en' : 'fr';
  // Issue 29: labels name the report in words ("Women 20–24"); the key is secondary text only.
  const named = report.name[lng];
  return (
    <Paper variant="outlined" sx={{ px: 2, py: 1 }} data-testid={`report-${report.key}`}>
      <Box sx={{ display: 'flex', alignItems: 'center', columnGap: 1, flexWrap: 'wrap' }}>
        {selected !== undefined && (
          <Checkbox
            checked={selected}
            onChange={(e) => onSelect?.(e.target.checked)}
            slotProps={{ input: { 'aria-label': t('reports.bulk.select', { name: named }) } }}
            sx={{ ml: -1 }}
          />
        )}
        <Box sx={{ flex: '1 1 220px', minWidth: 0, py: 0.5 }}>
          <Typography sx={{ fontWeight: 600, color: report.hidden ? 'text.secondary' : 'text.primary' }}>
            {named}
          </Typography>
          <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap', alignItems: 'center' }}>
            <Typography variant="caption" color="text.secondary" sx={{ fontFamily: 'monospace', mr: 0.5 }}>
              {report.key}
            </Typography>
            <Chip size="small" label={t(`reports.kinds.${report.kind}`)} />
            {!report.standard && (
              <Chip size="small" color="primary" variant="outlined" label={t('reports.custom')} />
            )}
            {filters.map(([k, v]) => (
              <Chip key={k} size="small" variant="outlined" label={`${t(`reports.filter.${k}`)}: ${v}`} />
            ))}
          </Box>
        </Box>
        <FormControlLabel
          control={
            <Switch
              checked={!report.hidden}
              onChange={(e) => save.mutate({ hidden: !e.target.checked })}
              disabled={!editable}
              slotProps={{ input: { 'aria-label': t('reports.shownNamed', { key: named }) } }}
            />
          }
          label={report.hidden ? t('reports.hidden') : t('reports.shown')}
          sx={{ mr: 0 }}
        />
        <Box sx={{ display: 'flex', alignItems: 'center' }}>
          <IconButton
            aria-label={t('reports.up', { key: named })}
            disabled={!editable || first}
            onClick={() => onMove(-1)}
          >
            <MdiIcon path={mdiArrowUp} />
          </IconButton>
          <IconButton
            aria-label={t('reports.down', { key: named })}
            disabled={!editable || last}
            onClick={() => onMove(1)}
          >
            <MdiIcon path={mdiArrowDown} />
          </IconButton>
          <IconButton
            aria-label={t('reports.edit', { key: named })}
            aria-expanded={open}
            onClick={() => setOpen((v) => !v)}
          >
            <MdiIcon path={open ? mdiChevronUp : mdiPencil} />
          </IconButton>
          {!report.standard && (
            <IconButton
              aria-label={t('reports.delete', { key: named })}
              disabled={!editable}
              onClick={() => remove.mutate()}
            >
              <MdiIcon path={mdiDelete} />
            </IconButton>
          )}
        </Box>
      </Box>
      <SaveError error={save.error ?? remove.error} />
      {open && (
        <Stack spacing={1.5} sx={{ py: 1.5 }}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
            <TextField
              size="small"
              label={t('reports.nameEn')}
              value={name.en}
              onChange={(e) => setName((n) => ({ ...n, en: e.target.value }))}
              disabled={!editable}
              fullWidth
              error={!!fieldError(save.error, 'name.en')}
            />
            <TextField
              size="small"
              label={t('reports.nameFr')}
              value={name.fr}
              onChange={(e) => setName((n) => ({ ...n, fr: e.target.value }))}
              disabled={!editable}
              fullWidth
              error={!!fieldError(save.error, 'name.fr')}
            />
          </Stack>
          <Autocomplete
            multiple
            size="small"
            options={[...reportFields[report.kind]] as ReportField[]}
            value={columns}
            onChange={(_e, v) => setColumns(v)}
            getOptionLabel={(f) => t(`reports.fields.${f}`)}
            disabled={!editable}
            renderInput={(params) => (
              <TextField {...params} label={t('reports.columns')} helperText={t('reports.columnsHelp')} />
            )}
          />
          {editable && (
            <div>
              <Button
                variant="contained"
                size="small"
                disabled={save.isPending || columns.length === 0}
                onClick={() => save.mutate({ name, columns })}
              >
                {t('form.save')}
              </Button>
            </div>
          )}
        </Stack>
      )}
    </Paper>
  );
}
