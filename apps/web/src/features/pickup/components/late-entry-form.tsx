import { Alert, Box, Button, MenuItem, TextField } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateInput } from '../../../components/date-input.tsx';
import type { PickupList, PickupOpAnswer } from '../api/pickup.ts';
import type { usePickup } from '../hooks/use-pickup.ts';
import { AnswerAlert } from './answer-alert.tsx';

/**
 * The kiosk's late entry (issue 39): only what an entry requires (race, names, gender, birth date,
 * the e-mail the confirmation goes to), an add-on, paid on site; the server enters
 * the runner (the entries module's manual entry) and gives a bib at once.
 */
export function LateEntryForm({
  list,
  add,
  answer,
}: {
  list: PickupList;
  add: ReturnType<typeof usePickup>['add'];
  /** The answer to this phone's last late entry, once sent. */
  answer: PickupOpAnswer | null | undefined;
}) {
  const { t } = useTranslation('pickup');
  const races = list.races.filter((r) => r.lateEntries);
  const [raceId, setRaceId] = useState(races[0]?.id ?? '');
  const [firstName, setFirst] = useState('');
  const [lastName, setLast] = useState('');
  const [gender, setGender] = useState<'M' | 'F' | 'X'>('F');
  const [birthDate, setBirth] = useState('');
  const [email, setEmail] = useState('');
  const [addOn, setAddOn] = useState('');
  const [method, setMethod] = useState<'cash' | 'card'>('cash');
  const [sent, setSent] = useState(false);
  const name = answer?.runner ? `${answer.runner.firstName} ${answer.runner.lastName}` : '';
  return (
    <Box
      component="form"
      aria-label={t('late.title')}
      sx={{ display: 'grid', gap: 1.5 }}
      onSubmit={(e) => {
        e.preventDefault();
        void add({
          kind: 'late',
          method,
          runner: {
            raceId,
            firstName,
            lastName,
            gender,
            birthDate: birthDate || null,
            email,
            addOns: addOn ? [{ key: addOn, quantity: 1 }] : [],
          },
        });
        setSent(true);
      }}
    >
      <TextField
        select
        required
        size="small"
        label={t('late.race')}
        value={raceId}
        onChange={(e) => setRaceId(e.target.value)}
      >
        {races.map((r) => (
          <MenuItem key={r.id} value={r.id}>
            {r.name}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        required
        size="small"
        label={t('late.firstName')}
        value={firstName}
        onChange={(e) => setFirst(e.target.value)}
      />
      <TextField
        required
        size="small"
        label={t('late.lastName')}
        value={lastName}
        onChange={(e) => setLast(e.target.value)}
      />
      <TextField
        select
        size="small"
        label={t('late.gender')}
        value={gender}
        onChange={(e) => setGender(e.target.value as 'M' | 'F' | 'X')}
      >
        {(['F', 'M', 'X'] as const).map((g) => (
          <MenuItem key={g} value={g}>
            {t(`late.genders.${g}`)}
          </MenuItem>
        ))}
      </TextField>
      <DateInput
        size="small"
        label={t('late.birthDate')}
        value={birthDate}
        onChange={(v) => setBirth(v ?? '')}
        data-testid="late-birth-date"
      />
      <TextField
        required
        size="small"
        type="email"
        label={t('late.email')}
        value={email}
        onChange={(e) => setEmail(e.target.value)}
      />
      {list.addOns.length > 0 && (
        <TextField
          select
          size="small"
          label={t('late.addOn')}
          value={addOn}
          onChange={(e) => setAddOn(e.target.value)}
        >
          <MenuItem value="">{t('late.none')}</MenuItem>
          {list.addOns.map((a) => (
            <MenuItem key={a.key} value={a.key}>
              {a.name}
            </MenuItem>
          ))}
        </TextField>
      )}
      <TextField
        select
        size="small"
        label={t('late.method')}
        value={method}
        onChange={(e) => setMethod(e.target.value as 'cash' | 'card')}
      >
        <MenuItem value="cash">{t('card.cash')}</MenuItem>
        <MenuItem value="card">{t('card.card')}</MenuItem>
      </TextField>
      <Button type="submit" variant="contained" disabled={!raceId}>
        {t('late.submit')}
      </Button>
      {sent && !answer && (
        <Alert severity="info" role="status">
          {t('late.queued')}
        </Alert>
      )}
      {answer?.status === 'done' && (
        <Alert severity="success" role="status">
          {answer.runner?.bib ? t('late.done', { name, bib: answer.runner.bib }) : t('late.noBib', { name })}
        </Alert>
      )}
      {answer && <AnswerAlert answer={answer} />}
    </Box>
  );
}
