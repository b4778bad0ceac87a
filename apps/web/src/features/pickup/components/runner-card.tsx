import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  FormControl,
  FormControlLabel,
  FormLabel,
  Radio,
  RadioGroup,
  TextField,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatMoney } from '../../../lib/money.ts';
import type { PickupOpAnswer, PickupRunner } from '../api/pickup.ts';
import type { usePickup } from '../hooks/use-pickup.ts';
import { AnswerAlert } from './answer-alert.tsx';
import { BUTTON, FIELD, ROW } from './layout.ts';
import { ScanPanel } from './scan-panel.tsx';

type Add = ReturnType<typeof usePickup>['add'];

/**
 * A runner's card at the bib table (issue 39): race, wave, bib (given now from the race's range or
 * typed), chips (scanned or typed, bound through the server's chip map), what to hand out, a
 * guardian's consent missing, the unpaid balance (cash or card), an ID check note, and one tap
 * "Handed out". Every action is an operation kept on the phone first (`add`).
 */
export function RunnerCard({
  runner,
  answers,
  currency,
  timeZone,
  add,
  onClose,
}: {
  runner: PickupRunner;
  /** The server's answers to this phone's operations on this runner, newest first. */
  answers: PickupOpAnswer[];
  currency: string;
  timeZone: string;
  add: Add;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation('pickup');
  const [bib, setBib] = useState('');
  const [chip, setChip] = useState('');
  const [amount, setAmount] = useState(() =>
    (runner.unpaidCents / 100).toFixed(2).replace('.', i18n.language === 'fr' ? ',' : '.'),
  );
  const [method, setMethod] = useState<'cash' | 'card'>('cash');
  const [note, setNote] = useState('');
  const id = runner.id;
  const last = answers.find((a) => a.status === 'refused' || a.status === 'conflict');
  const bindChip = (code: string) => {
    if (code.trim()) void add({ kind: 'chip', participantId: id, chip: code.trim() });
    setChip('');
  };
  const items = ['bib', ...(runner.chips.length ? ['chip'] : []), ...runner.addOns.map((a) => a.key)];
  return (
    <Card variant="outlined" aria-label={`${runner.firstName} ${runner.lastName}`}>
      <CardContent sx={{ display: 'grid', gap: 1.5 }}>
        <Typography component="h2" variant="h5">
          {runner.firstName} {runner.lastName.toUpperCase()}
        </Typography>
        <Typography>
          {t('common:labelled', { label: t('card.race'), value: runner.raceName })}
          {runner.wave ? ` · ${t('card.wave')} ${runner.wave}` : ''}
        </Typography>
        {runner.guardianMissing && (
          <Alert severity="warning" role="status">
            {t('card.guardian')}
          </Alert>
        )}
        {last && <AnswerAlert answer={last} />}

        <Box sx={{ display: 'grid', gap: 1 }}>
          <Typography variant="h6" component="p" data-testid="pickup-bib">
            {runner.bib ? `${t('card.bib')} ${runner.bib}` : t('card.noBib')}
          </Typography>
          {!runner.bib && (
            <Button variant="contained" onClick={() => void add({ kind: 'bib', participantId: id })}>
              {t('card.nextBib')}
            </Button>
          )}
          <Box
            component="form"
            sx={ROW}
            onSubmit={(e) => {
              e.preventDefault();
              if (bib.trim()) void add({ kind: 'bib', participantId: id, bib: bib.trim() });
              setBib('');
            }}
          >
            <TextField
              size="small"
              label={t('card.typedBib')}
              value={bib}
              onChange={(e) => setBib(e.target.value)}
              slotProps={{ htmlInput: { inputMode: 'numeric' } }}
              sx={FIELD}
            />
            <Button type="submit" variant="outlined" sx={BUTTON}>
              {t('card.giveBib')}
            </Button>
          </Box>
        </Box>

        <Box sx={{ display: 'grid', gap: 1 }}>
          <Typography component="p" variant="subtitle1" sx={{ fontWeight: 'bold' }}>
            {t('card.chips')}
          </Typography>
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }} data-testid="pickup-chips">
            {runner.chips.length ? runner.chips.map((c) => <Chip key={c} label={c} />) : t('card.noChip')}
          </Box>
          <ScanPanel entry={false} label={t('card.scanChip')} onCode={bindChip} />
          <Box
            component="form"
            sx={ROW}
            onSubmit={(e) => {
              e.preventDefault();
              bindChip(chip);
            }}
          >
            <TextField
              size="small"
              label={t('card.chip')}
              value={chip}
              onChange={(e) => setChip(e.target.value)}
              sx={FIELD}
              slotProps={{ htmlInput: { autoCapitalize: 'characters', spellCheck: false } }}
            />
            <Button type="submit" variant="outlined" sx={BUTTON}>
              {t('card.bindChip')}
            </Button>
          </Box>
        </Box>

        <Box>
          <Typography component="p" variant="subtitle1" sx={{ fontWeight: 'bold' }}>
            {t('card.handOut')}
          </Typography>
          <Typography data-testid="pickup-addons">
            {runner.addOns.length
              ? runner.addOns.map((a) => `${a.name} ×${a.quantity}`).join(', ')
              : t('card.nothingElse')}
          </Typography>
        </Box>

        {runner.unpaidCents > 0 && (
          <Box
            component="form"
            sx={{ display: 'grid', gap: 1 }}
            onSubmit={(e) => {
              e.preventDefault();
              const cents = Math.round(Number(amount.replace(',', '.')) * 100);
              if (cents > 0) void add({ kind: 'pay', participantId: id, method, amountCents: cents });
            }}
          >
            <Alert severity="info" role="status">
              {t('card.unpaid', { amount: formatMoney(runner.unpaidCents, currency, i18n.language) })}
            </Alert>
            <TextField
              size="small"
              label={t('card.amount')}
              value={amount}
              onChange={(e) => setAmount(e.target.value)}
              slotProps={{ htmlInput: { inputMode: 'decimal' } }}
            />
            <FormControl>
              <FormLabel id={`pay-method-${id}`}>{t('card.method')}</FormLabel>
              <RadioGroup
                row
                aria-labelledby={`pay-method-${id}`}
                value={method}
                onChange={(e) => setMethod(e.target.value as 'cash' | 'card')}
              >
                <FormControlLabel value="cash" control={<Radio />} label={t('card.cash')} />
                <FormControlLabel value="card" control={<Radio />} label={t('card.card')} />
              </RadioGroup>
            </FormControl>
            <Button type="submit" variant="outlined">
              {t('card.paid')}
            </Button>
          </Box>
        )}

        <TextField
          size="small"
          label={t('card.idNote')}
          value={note}
          onChange={(e) => setNote(e.target.value)}
        />
        {runner.handedOut ? (
          <Alert severity="success" role="status">
            {t('card.handedOut', {
              at: formatDateTime(runner.handedOut.at, i18n.language, timeZone),
              by: runner.handedOut.by,
            })}
          </Alert>
        ) : (
          <Button
            variant="contained"
            color="success"
            size="large"
            onClick={() =>
              void add({ kind: 'handout', participantId: id, items, idNote: note, device: deviceName() })
            }
          >
            {t('card.handedOutButton')}
          </Button>
        )}
        <Button onClick={onClose}>{t('card.close')}</Button>
      </CardContent>
    </Card>
  );
}

/** A name for this phone in the conflicts list (kept in localStorage, made once). */
function deviceName(): string {
  const key = 'pickup-device';
  let name = localStorage.getItem(key);
  if (!name) {
    name = `phone-${Math.random().toString(36).slice(2, 6)}`;
    localStorage.setItem(key, name);
  }
  return name;
}
