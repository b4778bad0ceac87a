import { Autocomplete, TextField } from '@mui/material';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/** The IANA zones this browser knows (every modern browser lists ~400). */
function zones(): string[] {
  const intl = Intl as unknown as { supportedValuesOf?: (key: string) => string[] };
  return intl.supportedValuesOf?.('timeZone') ?? ['Europe/Brussels', 'Europe/Paris', 'UTC'];
}

/** A searchable IANA time zone picker. */
export function TimeZoneField({
  value,
  onChange,
  error,
  disabled = false,
}: {
  value: string;
  onChange: (zone: string) => void;
  error?: string | undefined;
  /** Read only (a timekeeper's view of the event: issue 29). */
  disabled?: boolean;
}) {
  const { t } = useTranslation('console');
  const options = useMemo(zones, []);
  return (
    <Autocomplete
      options={options}
      value={value}
      disableClearable
      disabled={disabled}
      onChange={(_e, zone) => zone && onChange(zone)}
      renderInput={(params) => (
        <TextField
          {...params}
          label={t('event.timeZone')}
          required
          error={!!error}
          helperText={error ?? t('event.timeZoneHelp')}
        />
      )}
      fullWidth
    />
  );
}
