import { Alert, Snackbar } from '@mui/material';
import { useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';

export { fieldError } from '../../../lib/api-client.ts';

/**
 * The translated message of a failed save, or null: field errors point at the fields, other errors
 * say why. For `SaveError` and the console's form dialogs (`components/form-dialog.tsx`'s `error`).
 */
export function useSaveErrorMessage(error: unknown): string | null {
  const { t } = useTranslation('console');
  if (!error) return null;
  const api = error instanceof ApiError ? error : null;
  // The race an official-results refusal names (issue 43: RACE_OFFICIAL carries it).
  const known = api && t(`errors.${api.code}`, { defaultValue: '', race: api.fieldErrors.race?.[0] ?? '' });
  return api?.isNetwork
    ? t('errors.NETWORK')
    : known ||
        (api && Object.keys(api.fieldErrors).length
          ? t('errors.VALIDATION_FAILED')
          : (api?.message ?? t('errors.generic')));
}

/** A translated alert for a failed save: field errors point at the fields, other errors say why. */
export function SaveError({ error }: { error: unknown }) {
  const message = useSaveErrorMessage(error);
  if (message === null) return null;
  return (
    <Alert severity="error" role="alert" sx={{ my: 1 }}>
      {message}
    </Alert>
  );
}

/**
 * The last save of the event console (ms since the epoch), outside any form: a saved change
 * refetches the race or event, and its forms are keyed by that data, so the form that saved is
 * remounted at once and a snackbar of its own vanished before it was seen (issue 29: the
 * categories' and points' saves showed nothing).
 */
let lastSavedAt = 0;
const listeners = new Set<() => void>();
/**
 * Shows "Saved." (issue 29: event settings, points and categories saved without a word): call it
 * from a save's `onSuccess`, before refetching — the form may be remounted by the fresh data.
 */
export function announceSaved(at = Date.now()) {
  if (at <= lastSavedAt) return;
  lastSavedAt = at;
  for (const listener of listeners) listener();
}
function subscribeSaved(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/**
 * "Saved." for a few seconds after a save, at the bottom of the screen where it is seen whatever
 * the scroll; mounted once by the event's frame (event-layout.tsx), so it outlives the form.
 */
export function SavedAnnouncer() {
  const { t } = useTranslation('console');
  const at = useSyncExternalStore(subscribeSaved, () => lastSavedAt);
  // A save made before this page was opened is not announced again.
  const [closedAt, setClosedAt] = useState(() => lastSavedAt);
  return (
    <Snackbar
      open={at > closedAt}
      autoHideDuration={4000}
      onClose={(_e, reason) => reason !== 'clickaway' && setClosedAt(at)}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
    >
      <Alert severity="success" variant="filled" role="status" onClose={() => setClosedAt(at)}>
        {t('form.saved')}
      </Alert>
    </Snackbar>
  );
}
