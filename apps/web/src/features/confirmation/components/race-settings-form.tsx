import { Alert, Box, Button, Stack, TextField, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import type { ConfirmationRace } from '@tempora/contracts';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { confirmationApi, confirmationKeys } from '../api/documents.ts';

const num = (v: string) => (v.trim() === '' ? null : Number(v));
const cents = (v: string) => Math.round(Number(v.replace(',', '.')) * 100);

/**
 * A race's confirmation settings: bib range, places, and a two-step tariff (an early price until
 * a date, then the normal price) — the date-based tariff of issue 17.
 */
export function RaceSettingsForm({ race }: { race: ConfirmationRace }) {
  const { t } = useTranslation('confirmation');
  const client = useQueryClient();
  const s = race.settings;
  const early = s.tariffs.find((x) => x.until !== null);
  const normal = s.tariffs.find((x) => x.until === null);
  const [form, setForm] = useState({
    bibFrom: s.bibFrom?.toString() ?? '',
    bibTo: s.bibTo?.toString() ?? '',
    capacity: s.capacity?.toString() ?? '',
    earlyUntil: early?.until ?? '',
    earlyPrice: early ? (early.priceCents / 100).toString() : '',
    price: normal ? (normal.priceCents / 100).toString() : '',
  });
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [key]: e.target.value }));

  async function handleSubmit(e: FormEvent) {
    e.preventDefault();
    const tariffs = [
      ...(form.earlyUntil && form.earlyPrice
        ? [{ until: form.earlyUntil, priceCents: cents(form.earlyPrice) }]
        : []),
      ...(form.price ? [{ until: null, priceCents: cents(form.price) }] : []),
    ];
    try {
      await confirmationApi.raceSettings(race.id, {
        bibFrom: num(form.bibFrom),
        bibTo: num(form.bibTo),
        capacity: num(form.capacity),
        tariffs,
      });
      setMessage({ ok: true, text: t('event.saved') });
      void client.invalidateQueries({ queryKey: confirmationKeys.all });
    } catch (err) {
      setMessage({ ok: false, text: t('errors.generic', { message: (err as Error).message }) });
    }
  }

  return (
    <Box
      component="form"
      onSubmit={handleSubmit}
      aria-label={`${t('event.settings')} — ${race.name}`}
      sx={{ py: 1.5 }}
    >
      <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600 }}>
        {race.name}{' '}
        <Typography component="span" variant="body2" color="text.secondary">
          · {race.date} · {t('event.participants', { count: race.participants })}
        </Typography>
      </Typography>
      <Stack
        direction="row"
        spacing={1}
        useFlexGap
        sx={{
          flexWrap: 'wrap',
          mt: 1,
          '& .MuiTextField-root': { width: { xs: 'calc(50% - 4px)', sm: 130 } },
        }}
      >
        <TextField
          size="small"
          type="number"
          label={t('event.bibFrom')}
          value={form.bibFrom}
          onChange={set('bibFrom')}
        />
        <TextField
          size="small"
          type="number"
          label={t('event.bibTo')}
          value={form.bibTo}
          onChange={set('bibTo')}
        />
        <TextField
          size="small"
          type="number"
          label={t('event.capacity')}
          value={form.capacity}
          onChange={set('capacity')}
        />
        <TextField
          size="small"
          label={t('event.price')}
          value={form.price}
          onChange={set('price')}
          inputMode="decimal"
        />
        <TextField
          size="small"
          label={t('event.earlyPrice')}
          value={form.earlyPrice}
          onChange={set('earlyPrice')}
          inputMode="decimal"
        />
        <TextField
          size="small"
          type="date"
          label={t('event.earlyUntil')}
          value={form.earlyUntil}
          onChange={set('earlyUntil')}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <Button type="submit" variant="outlined">
          {t('event.save')}
        </Button>
      </Stack>
      {message && (
        <Alert severity={message.ok ? 'success' : 'error'} sx={{ mt: 1 }} role="status">
          {message.text}
        </Alert>
      )}
    </Box>
  );
}
