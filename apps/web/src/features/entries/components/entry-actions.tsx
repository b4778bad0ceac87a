import { Alert, Button, MenuItem, Stack, TextField, Typography } from '@mui/material';
import type { EntryActionInput, EntryQuote, MyEntry } from '@tempora/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { paths } from '../../../config/paths.ts';
import { formatMoney } from '../../../lib/money.ts';
import { useEntryAction, useQuote, useRegistrationPage } from '../api/entries.ts';
import { problemText } from './errors.ts';

type Action = EntryActionInput['action'];

/**
 * The runner's self-service (issue 38): one button per action the organiser's policy allows now;
 * each opens a dialog that first shows its fee or refund (the server's quote), then confirms.
 * A fee or a price difference opens the order to pay.
 */
export function EntryActions({ entry }: { entry: MyEntry }) {
  const { t } = useTranslation('entries');
  const [open, setOpen] = useState<Action | null>(null);
  return (
    <Stack spacing={1}>
      {entry.allowed.map((a) => (
        <Button key={a} variant="outlined" onClick={() => setOpen(a)} data-testid={`action-${a}`}>
          {t(`actions.${a}`)}
        </Button>
      ))}
      {open && <ActionDialog entry={entry} action={open} onClose={() => setOpen(null)} />}
    </Stack>
  );
}

function ActionDialog({ entry, action, onClose }: { entry: MyEntry; action: Action; onClose: () => void }) {
  const { t, i18n } = useTranslation('entries');
  const navigate = useNavigate();
  const quote = useQuote(entry.code);
  const act = useEntryAction(entry.code);
  const page = useRegistrationPage(entry.eventId);
  const [raceId, setRaceId] = useState('');
  const [runner, setRunner] = useState({ firstName: '', lastName: '', email: '' });
  const [shown, setShown] = useState<EntryQuote | null>(null);
  const money = (c: number) => formatMoney(c, entry.currency, i18n.language);
  const input = (): EntryActionInput => ({
    action,
    ...(action === 'move' ? { raceId } : {}),
    ...(action === 'transfer' || action === 'edit'
      ? { runner: Object.fromEntries(Object.entries(runner).filter(([, v]) => v)) }
      : {}),
  });
  const handleSubmit = async () => {
    if (!shown) {
      setShown(await quote.mutateAsync(input()));
      return;
    }
    const done = await act.mutateAsync(input());
    if (done.orderId) navigate(paths.entryOrder(done.orderId));
    else onClose();
  };
  return (
    <FormDialog
      title={t(`actions.${action}`)}
      onClose={onClose}
      onSubmit={handleSubmit}
      submitLabel={
        shown
          ? shown.payCents > 0
            ? t('actions.payDifference', { amount: money(shown.payCents) })
            : t('actions.confirm')
          : t('actions.quote')
      }
      submitDisabled={(action === 'move' && !raceId) || (shown !== null && !shown.allowed)}
      submitColor={action === 'cancel' && shown ? 'error' : 'primary'}
      cancelLabel={t('actions.close')}
      error={problemText(t, quote.error ?? act.error)}
    >
      {action === 'move' && (
        <TextField
          select
          label={t('actions.newRace')}
          value={raceId}
          onChange={(e) => {
            setRaceId(e.target.value);
            setShown(null);
          }}
        >
          {(page.data?.races ?? [])
            .filter((r) => r.raceId !== entry.raceId)
            .map((r) => (
              <MenuItem key={r.raceId} value={r.raceId} disabled={!r.open || r.waitlist}>
                {r.name} — {money(r.priceCents)}
              </MenuItem>
            ))}
        </TextField>
      )}
      {(action === 'transfer' || action === 'edit') && (
        <>
          {action === 'transfer' && <Typography variant="subtitle2">{t('actions.newRunner')}</Typography>}
          {(['firstName', 'lastName', 'email'] as const).map((f) => (
            <TextField
              key={f}
              label={t(`form.${f}`)}
              value={runner[f]}
              onChange={(e) => {
                setRunner({ ...runner, [f]: e.target.value });
                setShown(null);
              }}
            />
          ))}
        </>
      )}
      {shown && (
        <Alert severity={shown.allowed ? 'info' : 'warning'} data-testid="action-quote">
          {!shown.allowed
            ? t('actions.notAllowed')
            : shown.payCents > 0
              ? t('actions.fee', { amount: money(shown.payCents) })
              : shown.refundCents > 0
                ? t('actions.refund', { amount: money(shown.refundCents) })
                : action === 'defer'
                  ? t('actions.credit', { amount: money(shown.creditCents) })
                  : t('actions.free')}
        </Alert>
      )}
    </FormDialog>
  );
}
