import { Alert, Box, Button, FormControlLabel, Paper, Switch, TextField, Typography } from '@mui/material';
import type { DepositSettings } from '@tempora/contracts';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, fieldError } from '../../../lib/api-client.ts';
import { paymentsApi, useSettings, useSettingsRaces, useStaffMutation } from '../api/payments.ts';
import { RefundPolicyField } from './refund-policy-field.tsx';

/** The event's group-entry settings: open, deadline, fees and places per race, expiry, refunds, account. */
export function SettingsForm({ eventId }: { eventId: string }) {
  const { t } = useTranslation('payments');
  const settings = useSettings(eventId);
  const races = useSettingsRaces(eventId).data ?? [];
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [policy, setPolicy] = useState<DepositSettings['refundPolicy'] | null>(null);
  /** A field's translated error, as helper text (issue 29: on the field, in the UI's language). */
  const err = (...names: string[]) => {
    const message = fieldError(error, ...names);
    return message ? { error: true, helperText: message } : {};
  };
  const save = useStaffMutation((s: DepositSettings) => paymentsApi.saveSettings(eventId, s));
  if (!settings.data) return null;
  const s = settings.data;
  const refundPolicy = policy ?? s.refundPolicy;
  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const v = (k: string) => String(form.get(k) ?? '').trim();
    const fees: Record<string, number> = {};
    const capacities: Record<string, number> = {};
    for (const r of races) {
      fees[r.id] = Math.round(Number(v(`fee-${r.id}`).replace(',', '.') || 0) * 100);
      if (v(`cap-${r.id}`)) capacities[r.id] = Number(v(`cap-${r.id}`));
    }
    const next: DepositSettings = {
      open: form.get('open') === 'on',
      entryDeadline: v('deadline') ? new Date(v('deadline')).toISOString() : null,
      currency: 'EUR',
      fees,
      capacities,
      orderExpiryDays: Number(v('expiry') || 14),
      refundPolicy,
      beneficiary: v('beneficiary'),
      iban: v('iban').replace(/\s/g, '').toUpperCase(),
    };
    try {
      await save.mutateAsync(next);
      setError(null);
      setStatus({ ok: true, text: t('settings.saved') });
    } catch (e) {
      setError(e);
      setStatus({
        ok: false,
        text:
          e instanceof ApiError && Object.keys(e.fieldErrors).length
            ? t('settings.checkFields')
            : t('errors.generic'),
      });
    }
  };
  const local = s.entryDeadline
    ? new Date(new Date(s.entryDeadline).getTime() - new Date().getTimezoneOffset() * 60_000)
        .toISOString()
        .slice(0, 16)
    : '';
  return (
    <Paper
      component="form"
      variant="outlined"
      onSubmit={handleSubmit}
      sx={{ p: 2, display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}
    >
      <FormControlLabel
        control={<Switch name="open" defaultChecked={s.open} />}
        label={t('settings.open')}
        sx={{ gridColumn: { sm: 'span 2' } }}
      />
      <TextField
        name="deadline"
        type="datetime-local"
        label={t('settings.deadline')}
        defaultValue={local}
        {...err('entryDeadline')}
        slotProps={{ inputLabel: { shrink: true } }}
      />
      <TextField
        name="expiry"
        type="number"
        label={t('settings.expiry')}
        defaultValue={s.orderExpiryDays}
        {...err('orderExpiryDays')}
      />
      {races.map((r) => (
        <Box key={r.id} sx={{ display: 'contents' }}>
          <TextField
            name={`fee-${r.id}`}
            label={t('settings.fee', { race: r.name })}
            defaultValue={((s.fees[r.id] ?? 0) / 100).toFixed(2)}
            {...err(`fees.${r.id}`)}
          />
          <TextField
            name={`cap-${r.id}`}
            type="number"
            label={t('settings.capacity', { race: r.name })}
            defaultValue={s.capacities[r.id] ?? ''}
            {...err(`capacities.${r.id}`)}
          />
        </Box>
      ))}
      <TextField
        name="beneficiary"
        label={t('settings.beneficiary')}
        defaultValue={s.beneficiary}
        {...err('beneficiary')}
      />
      <TextField name="iban" label="IBAN" defaultValue={s.iban} {...err('iban')} />
      <Box sx={{ gridColumn: { sm: 'span 2' } }}>
        <RefundPolicyField value={refundPolicy} onChange={setPolicy} error={error} />
      </Box>
      <Box>
        <Button type="submit" variant="contained">
          {t('settings.save')}
        </Button>
      </Box>
      {status && (
        <Alert severity={status.ok ? 'success' : 'error'} sx={{ gridColumn: { sm: 'span 2' } }}>
          {status.text}
        </Alert>
      )}
      <Typography variant="body2" color="text.secondary" sx={{ gridColumn: { sm: 'span 2' } }}>
        {t('settings.help')}
      </Typography>
    </Paper>
  );
}
