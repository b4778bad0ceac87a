import { Alert, Box, Button, MenuItem, Paper, TextField, Typography } from '@mui/material';
import type { DepositCreate } from '@tempora/contracts';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { depositApi } from '../api/deposits.ts';

const TYPES = ['company', 'club', 'school', 'friends'] as const;
const PAYERS = ['captain', 'member', 'company'] as const;

/** A signed-in user starts a deposit for an event and becomes its captain. */
export function CreateDeposit({ eventId }: { eventId: string }) {
  const { t } = useTranslation('deposits');
  const navigate = useNavigate();
  const [payer, setPayer] = useState<(typeof PAYERS)[number]>('captain');
  const [error, setError] = useState<string | null>(null);
  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const v = (k: string) => String(form.get(k) ?? '').trim();
    const input: DepositCreate = {
      eventId,
      organisationName: v('organisationName'),
      type: v('type') as DepositCreate['type'],
      payerMode: payer,
      minTeamSize: Number(v('minTeamSize') || 1),
      ...(v('vat') ? { vat: v('vat') } : {}),
      ...(payer === 'company' && v('companyCap') ? { companyCap: Number(v('companyCap')) } : {}),
      ...(payer === 'company' && v('companyUntil') ? { companyUntil: v('companyUntil') } : {}),
    };
    try {
      setError(null);
      const created = await depositApi.create(input);
      navigate(paths.depositView(eventId, created.id, 'collect'));
    } catch (e) {
      setError(
        e instanceof ApiError ? t(`errors.${e.code}`, { defaultValue: e.message }) : t('errors.generic'),
      );
    }
  };
  return (
    <Paper
      component="form"
      variant="outlined"
      onSubmit={handleSubmit}
      sx={{ p: 2, display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}
    >
      <Typography variant="h6" component="h2" sx={{ fontSize: 18, gridColumn: { sm: 'span 2' } }}>
        {t('create.title')}
      </Typography>
      <TextField name="organisationName" label={t('create.name')} required />
      <TextField name="vat" label={t('create.vat')} placeholder="BE0123456789" />
      <TextField select name="type" label={t('create.type')} defaultValue="company">
        {TYPES.map((x) => (
          <MenuItem key={x} value={x}>
            {t(`create.types.${x}`)}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        label={t('create.payer')}
        value={payer}
        onChange={(e) => setPayer(e.target.value as typeof payer)}
      >
        {PAYERS.map((x) => (
          <MenuItem key={x} value={x}>
            {t(`create.payers.${x}`)}
          </MenuItem>
        ))}
      </TextField>
      {payer === 'company' && (
        <>
          <TextField
            name="companyCap"
            type="number"
            label={t('create.cap')}
            slotProps={{ htmlInput: { min: 1 } }}
          />
          <TextField
            name="companyUntil"
            type="date"
            label={t('create.until')}
            slotProps={{ inputLabel: { shrink: true } }}
          />
        </>
      )}
      <TextField
        name="minTeamSize"
        type="number"
        label={t('create.minTeamSize')}
        defaultValue={3}
        slotProps={{ htmlInput: { min: 1 } }}
        helperText={t('create.minTeamSizeHelp')}
      />
      <Box sx={{ gridColumn: { sm: 'span 2' } }}>
        <Button type="submit" variant="contained">
          {t('create.submit')}
        </Button>
      </Box>
      {error && (
        <Alert severity="error" role="alert" sx={{ gridColumn: { sm: 'span 2' } }}>
          {error}
        </Alert>
      )}
    </Paper>
  );
}
