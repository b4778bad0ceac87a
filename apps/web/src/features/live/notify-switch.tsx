import { Box, FormControlLabel, Switch, Typography } from '@mui/material';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FavoritePassingNotifier, useNotifyChoice } from './favorite-notifications.tsx';

// Messages only: loaded when one shows.
const Alert = lazy(() => import('@mui/material/Alert'));

/**
 * Opt-in browser notifications when a favourite passes a timing point (issue 7): asked for only
 * when the spectator turns the switch on; the choice is kept per event.
 */
export function NotifySwitch({
  eventId,
  dbs,
  favorites,
}: {
  eventId: string;
  dbs: string[];
  favorites: ReadonlySet<string>;
}) {
  const { t } = useTranslation('live');
  const [on, setOn] = useNotifyChoice(eventId);
  const [denied, setDenied] = useState(false);
  if (typeof Notification === 'undefined') return null;
  const active = on && Notification.permission === 'granted';
  return (
    <Box sx={{ mb: 2 }}>
      <FormControlLabel
        control={
          <Switch
            checked={active}
            onChange={async (e) => {
              if (!e.target.checked) return setOn(false);
              const permission =
                Notification.permission === 'granted' ? 'granted' : await Notification.requestPermission();
              setDenied(permission !== 'granted');
              setOn(permission === 'granted');
            }}
          />
        }
        label={t('notify.switch')}
      />
      {denied && (
        <Suspense fallback={<Typography sx={{ mt: 1 }}>{t('notify.denied')}</Typography>}>
          <Alert severity="warning" sx={{ mt: 1 }}>
            {t('notify.denied')}
          </Alert>
        </Suspense>
      )}
      {active && dbs.map((db) => <FavoritePassingNotifier key={db} db={db} favorites={favorites} />)}
    </Box>
  );
}
