import { Box, ListItemText, MenuItem, TextField } from '@mui/material';
import {
  type ParticipantField,
  participantFields,
  requiredParticipantFields,
  type UploadInfo,
} from '@tempora/contracts';
import { useTranslation } from 'react-i18next';

export type Mapping = Partial<Record<ParticipantField, string>>;

/**
 * The column mapping of an import: one choice per field, each column offered with a few of its
 * values, and the chosen column's values under the choice (issue 29: RaceResult shows what a
 * column holds, so "Nom" vs "Nom de famille" is not a guess).
 */
export function MappingFields({
  sheet,
  mapping,
  onChange,
}: {
  sheet: UploadInfo['sheets'][number];
  mapping: Mapping;
  onChange(field: ParticipantField, column: string): void;
}) {
  const { t } = useTranslation('participants');
  const samplesOf = (column: string | undefined) => {
    const k = column === undefined ? -1 : sheet.header.indexOf(column);
    const values = k >= 0 ? (sheet.columnSamples[k] ?? []) : [];
    return values.length ? t('import.samples', { values: values.join(' · ') }) : t('import.emptyColumn');
  };
  return (
    <Box
      sx={{
        display: 'grid',
        gap: 1.5,
        gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', md: 'repeat(4, 1fr)' },
      }}
    >
      {participantFields.map((field) => (
        <TextField
          key={field}
          select
          size="small"
          label={`${t(`fields.${field}`)}${requiredParticipantFields.includes(field) ? ' *' : ''}`}
          value={mapping[field] ?? ''}
          onChange={(e) => onChange(field, e.target.value)}
          helperText={mapping[field] ? samplesOf(mapping[field]) : ' '}
          slotProps={{
            formHelperText: { sx: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' } },
            select: {
              renderValue: (value) => (value ? String(value) : t('import.notMapped')),
              displayEmpty: true,
            },
            inputLabel: { shrink: true },
          }}
          data-testid={`mapping-${field}`}
        >
          <MenuItem value="">{t('import.notMapped')}</MenuItem>
          {sheet.header.map((h) => (
            <MenuItem key={h} value={h}>
              <ListItemText
                primary={h}
                secondary={samplesOf(h)}
                slotProps={{ secondary: { noWrap: true, sx: { maxWidth: 320 } } }}
              />
            </MenuItem>
          ))}
        </TextField>
      ))}
    </Box>
  );
}
