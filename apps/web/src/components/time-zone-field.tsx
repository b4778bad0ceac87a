import { Autocomplete, TextField } from '@mui/material';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/** The IANA zones this browser knows (every modern browser lists ~400). */
function zones(): string[] {
  const intl = Intl as unknown as { supportedValuesOf?: (key: string) => string[] };
  return intl.supportedValuesOf?.('timeZone') ?? ['Europe/Brussels', 'Europe/Paris', 'UTC'];
}

/**
 * A searchable IANA time zone picker: the event's (required) by default; with `optional`, one
 * that may be cleared to `''` (a race-day device's zone, issue 29), with its own label and help.
 */
export function TimeZoneField({
  value,
  onChange,
  error,
  disabled = false,
  optional = false,
  label,
  help,
  size,
}: {
  value: string;
  onChange: (zone: string) => void;
  error?: string | undefined;
  /** Read only (a timekeeper's view of the event: issue 29). */
  disabled?: boolean;
  optional?: boolean;
  label?: string;
  help?: string;
  size?: 'small' | 'medium';
}) {
  const { t } = useTranslation('console');
  const options = useMemo(zones, []);
  const field = (params: object) => (
    <TextField
      {...params}
      label={label ?? t('event.timeZone')}
      required={!optional}
      error={!!error}
      helperText={error ?? help ?? t('event.timeZoneHelp')}
    />
  );
  if (optional)
    return (
      <Autocomplete
        options={options}
        value={value || null}
        disabled={disabled}
        size={size ?? 'medium'}
        onChange={(_e, zone) => onChange(zone ?? '')}
        renderInput={field}
        fullWidth
      />
    );
  return (
    <Autocomplete
      options={options}
      value={value}
      disableClearable
      disabled={disabled}
      size={size ?? 'medium'}
      onChange={(_e, zone) => zone && onChange(zone)}
      renderInput={field}
      fullWidth
    />
  );
}
