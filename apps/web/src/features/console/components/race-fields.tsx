import { MenuItem, Stack, TextField } from '@mui/material';
import { startTypes } from '@tempora/contracts';
import { useTranslation } from 'react-i18next';

/** What the race-create dialog and the race-details form both edit. */
export interface RaceFieldValues {
  name: string;
  date: string;
  distanceKm: string;
  startType: (typeof startTypes)[number];
  /** A time of day in the event's time zone (`HH:MM[:SS]`), '' for none. */
  gunTime: string;
}

/** A distance typed in km (comma or point) → whole metres. */
export const kmToMetres = (km: string) => Math.round(Number(km.replace(',', '.')) * 1000);

/**
 * Whole metres → km as the organiser reads and types them: the language's decimal separator
 * (issue 29: "21,098" in French, not "21.098"), no grouping, up to the metre.
 */
export const metresToKm = (metres: number, lng: string) =>
  (metres / 1000).toLocaleString(lng, { maximumFractionDigits: 3, useGrouping: false });

/**
 * A race's name, date, distance, start type and gun time, the gun typed in the event's time zone
 * (shown in its helper text). `required` marks date and distance (a new race needs them);
 * `between` is rendered after the name (the create dialog's race id).
 */
export function RaceFields({
  form,
  onChange,
  error,
  timeZone,
  disabled = false,
  required = false,
  between,
}: {
  form: RaceFieldValues;
  onChange: (name: keyof RaceFieldValues, value: string) => void;
  /** The server's message for a field. */
  error: (name: string) => string | undefined;
  timeZone: string;
  disabled?: boolean;
  required?: boolean;
  between?: React.ReactNode;
}) {
  const { t } = useTranslation('console');
  const set = (name: keyof RaceFieldValues) => (e: { target: { value: string } }) =>
    onChange(name, e.target.value);
  const field = (name: string) => ({ error: !!error(name), helperText: error(name) });
  return (
    <>
      <TextField
        label={t('race.name')}
        value={form.name}
        onChange={set('name')}
        disabled={disabled}
        required
        {...field('name')}
      />
      {between}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField
          type="date"
          label={t('race.date')}
          value={form.date}
          onChange={set('date')}
          disabled={disabled}
          required={required}
          slotProps={{ inputLabel: { shrink: true } }}
          fullWidth
          {...field('date')}
        />
        <TextField
          label={t('race.distanceKm')}
          value={form.distanceKm}
          onChange={set('distanceKm')}
          disabled={disabled}
          required={required}
          inputMode="decimal"
          fullWidth
          {...field('distanceM')}
        />
      </Stack>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField
          select
          label={t('race.startType')}
          value={form.startType}
          onChange={set('startType')}
          disabled={disabled}
          fullWidth
        >
          {startTypes.map((s) => (
            <MenuItem key={s} value={s}>
              {t(`startType.${s}`)}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          type="time"
          label={t('race.gunTime')}
          value={form.gunTime}
          onChange={set('gunTime')}
          disabled={disabled}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 1 } }}
          fullWidth
          error={!!error('gunTime')}
          helperText={error('gunTime') ?? t('race.inZone', { zone: timeZone })}
        />
      </Stack>
    </>
  );
}
