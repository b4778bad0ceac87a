import { mdiBellRingOutline } from '@mdi/js';
import { Button } from '@mui/material';
import type { AthleteCard } from '@tempora/contracts';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../components/mdi-icon.tsx';

// The dialog (and its form) loads on the first click: the card's first JS stays small (issue 19).
const AlertsDialog = lazy(() => import('./alerts-dialog.tsx').then((m) => ({ default: m.AlertsDialog })));

/** "Alerts": e-mail or web push messages about this runner at the points chosen (issue 40). */
export function AlertsButton({ card }: { card: AthleteCard }) {
  const { t } = useTranslation('runner');
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        variant="outlined"
        startIcon={<MdiIcon path={mdiBellRingOutline} aria-hidden />}
        onClick={() => setOpen(true)}
      >
        {t('alerts.button')}
      </Button>
      {open && (
        <Suspense fallback={null}>
          <AlertsDialog card={card} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
