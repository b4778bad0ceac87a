import { Alert, MenuItem, Stack, TextField } from '@mui/material';
import type { RegistrationSettings, RegistrationSettingsView } from '@tempora/contracts';
import { useTranslation } from 'react-i18next';

type Choice = RegistrationSettings['keptPlaces'][number];

const RELEASE = '__release';

/**
 * The races taken off the settings that keep places for the previous edition's deferral credits
 * (issue 38): each says how many, and asks where they go before the save — moved to another race
 * of the list, or released (the runners keep their credit's amount, without a place). Without a
 * choice the server answers 409 `KEPT_PLACES` on `keptPlaces.<raceId>`, shown here.
 */
export function KeptPlaces({
  view,
  listed,
  raceName,
  value,
  onChange,
  errors,
}: {
  view: RegistrationSettingsView;
  /** The races still in the form. */
  listed: readonly string[];
  raceName: (id: string) => string;
  value: readonly Choice[];
  onChange: (v: Choice[]) => void;
  /** The server's words for each race's `keptPlaces.<raceId>` error (read by the form, so its
   * list of other errors leaves them out). */
  errors: Readonly<Record<string, string | undefined>>;
}) {
  const { t } = useTranslation('entries');
  const leaving = view.races.filter((r) => r.kept > 0 && !listed.includes(r.raceId));
  if (!leaving.length) return null;
  const choose = (raceId: string, v: string) =>
    onChange([
      ...value.filter((c) => c.raceId !== raceId && leaving.some((r) => r.raceId === c.raceId)),
      ...(v ? [{ raceId, moveTo: v === RELEASE ? null : v }] : []),
    ]);
  return (
    <Stack spacing={1.5} data-testid="kept-places">
      {leaving.map((r) => {
        const chosen = value.find((c) => c.raceId === r.raceId);
        const error = errors[r.raceId];
        return (
          <Alert key={r.raceId} severity={error ? 'error' : 'warning'} role={error ? 'alert' : undefined}>
            <Stack spacing={1}>
              <span>{t('settings.keptPlaces.removed', { race: raceName(r.raceId), count: r.kept })}</span>
              {error && <strong>{error}</strong>}
              <TextField
                select
                size="small"
                label={t('settings.keptPlaces.choose', { race: raceName(r.raceId) })}
                value={chosen ? (chosen.moveTo ?? RELEASE) : ''}
                onChange={(e) => choose(r.raceId, e.target.value)}
                fullWidth
                sx={{ bgcolor: 'background.paper', '& .MuiSelect-select': { whiteSpace: 'normal' } }}
              >
                <MenuItem value="">{t('settings.keptPlaces.none')}</MenuItem>
                {listed.map((id) => (
                  <MenuItem key={id} value={id}>
                    {t('settings.keptPlaces.moveTo', { race: raceName(id) })}
                  </MenuItem>
                ))}
                <MenuItem value={RELEASE}>{t('settings.keptPlaces.release')}</MenuItem>
              </TextField>
            </Stack>
          </Alert>
        );
      })}
    </Stack>
  );
}
