import { Autocomplete, TextField } from '@mui/material';
import { zoneLabel } from '@tempora/domain';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/** The IANA zones this browser knows (every modern browser lists ~400). */
function zones(): string[] {
  const intl = Intl as unknown as { supportedValuesOf?: (key: string) => string[] };
  return intl.supportedValuesOf?.('timeZone') ?? ['Europe/Brussels', 'Europe/Paris', 'UTC'];
}

const NONE: readonly string[] = [];

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
  preferred = NONE,
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
  /** Zones listed first (the organisation's country's: issue 43). */
  preferred?: readonly string[];
}) {
  const { t, i18n } = useTranslation('console');
  const options = useMemo(() => {
    const all = zones();
    const first = preferred.filter((z) => all.includes(z));
    return [...first, ...all.filter((z) => !first.includes(z))];
  }, [preferred]);
  // Issue 43: the help names the zone the gun, waves and the desk's times are typed in.
  const named = value
    ? t('event.timeZoneNamed', {
        zone: value.replace(/_/g, ' '),
        label: zoneLabel(Date.now(), value, i18n.language),
      })
    : undefined;
  const field = (params: object) => (
    <TextField
      {...params}
      label={label ?? t('event.timeZone')}
      required={!optional}
      error={!!error}
      helperText={error ?? help ?? named ?? t('event.timeZoneHelp')}
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
      // Empty until chosen when the country has several zones (issue 43: asked, not guessed).
      value={(value || null) as string}
      disableClearable
      disabled={disabled}
      size={size ?? 'medium'}
      onChange={(_e, zone) => zone && onChange(zone)}
      renderInput={field}
      fullWidth
    />
  );
}
