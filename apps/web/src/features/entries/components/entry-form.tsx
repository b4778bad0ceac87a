import {
  Alert,
  Box,
  Button,
  Checkbox,
  FormControlLabel,
  MenuItem,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import type { EntryOrderInput, RegistrationPage, RunnerInput } from '@tempora/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateInput } from '../../../components/date-input.tsx';
import { formatMoney } from '../../../lib/money.ts';
import { fieldText, problemText } from './errors.ts';

type Answer = string | number | boolean | string[];
type Runner = Omit<RunnerInput, 'answers' | 'addOns'> & {
  answers: Record<string, Answer>;
  addOns: Record<string, number>;
};

const blank = (
  raceId: string,
  me?: {
    firstName?: string | null;
    lastName?: string | null;
    email?: string | null;
    birthDate?: string | null;
    gender?: string | null;
    nationality?: string | null;
  },
): Runner => ({
  raceId,
  firstName: me?.firstName ?? '',
  lastName: me?.lastName ?? '',
  email: me?.email ?? '',
  birthDate: me?.birthDate ?? null,
  gender: (me?.gender as 'M' | 'F' | 'X' | null) ?? null,
  nationality: me?.nationality ?? '',
  answers: {},
  addOns: {},
  discountCode: '',
});

/**
 * The entry form (issue 38): one or several runners (a family) on one order, each with their
 * race, the fields the race requires, the organiser's questions, add-ons still in stock, a
 * discount or member code; the waiver once for the order. Prefilled from the signed-in profile.
 * Errors come back per field from the server (`runners.{n}.{field}`) and are shown there.
 */
export function EntryForm({
  page,
  raceId,
  profile,
  invitation,
  creditCode,
  credit,
  busy,
  error,
  onSubmit,
}: {
  page: RegistrationPage;
  raceId: string;
  profile?: Parameters<typeof blank>[1];
  invitation?: string | null;
  /** A deferral credit's code from My entries' link (`?code=`), filled in for the first runner. */
  creditCode?: string | null;
  /** That credit as My entries shows it: its amount, and the race where a place is kept for it. */
  credit?: { cents: number; keptRaceId: string | null } | null;
  busy: boolean;
  error: unknown;
  onSubmit: (input: EntryOrderInput) => void;
}) {
  const { t, i18n } = useTranslation('entries');
  const [runners, setRunners] = useState<Runner[]>(() => [
    { ...blank(raceId, profile), discountCode: creditCode ?? '' },
  ]);
  const [waiver, setWaiver] = useState(false);
  const money = (c: number) => formatMoney(c, page.currency, i18n.language);
  const set = (n: number, patch: Partial<Runner>) =>
    setRunners((rs) => rs.map((r, k) => (k === n ? { ...r, ...patch } : r)));
  const err = (n: number, field: string) => fieldText(t, error, `runners.${n}.${field}`);
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    onSubmit({
      lang: i18n.language === 'fr' ? 'fr' : 'en',
      ...(invitation ? { invitation } : {}),
      runners: runners.map((r) => ({
        ...r,
        nationality: r.nationality || null,
        discountCode: r.discountCode || null,
        memberCode: r.memberCode || null,
        addOns: Object.entries(r.addOns)
          .filter(([, q]) => q > 0)
          .map(([key, quantity]) => ({ key, quantity })),
        waiverVersion: page.waiver && waiver ? page.waiver.version : null,
      })),
    });
  };
  const problem = problemText(t, error);
  // The credit against the first runner's entry, before confirming (issue 38): what is left to
  // pay, or the rest of the credit refunded (the server prices it again; this is what it shows).
  const first = runners[0];
  const creditLine = (() => {
    if (
      !credit ||
      !creditCode ||
      !first ||
      (first.discountCode ?? '').trim().toUpperCase() !== creditCode.toUpperCase()
    )
      return null;
    const race = page.races.find((x) => x.raceId === first.raceId);
    if (!race) return null;
    const price =
      race.priceCents + page.addOns.reduce((s, a) => s + a.priceCents * (first.addOns[a.key] ?? 0), 0);
    return {
      price,
      pay: Math.max(0, price - credit.cents),
      rest: Math.max(0, credit.cents - price),
      kept: credit.keptRaceId === first.raceId,
    };
  })();
  return (
    <Box component="form" onSubmit={submit} noValidate>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {t('form.title')}
      </Typography>
      {invitation && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('invited')}
        </Alert>
      )}
      {creditCode && (
        <Alert severity="info" sx={{ mb: 2 }} data-testid="credit-filled">
          {t('form.creditCode')}
        </Alert>
      )}
      {runners.map((r, n) => {
        // Runners are added and removed at the end only: their position is their identity.
        const race = page.races.find((x) => x.raceId === r.raceId);
        const required = new Set(race?.required ?? []);
        const text = (field: keyof Runner, label: string, type = 'text') =>
          type === 'date' ? (
            <DateInput
              label={`${t(label)}${required.has(field as never) ? ` (${t('form.required')})` : ''}`}
              value={r[field] as string | null}
              onChange={(v) => set(n, { [field]: v } as Partial<Runner>)}
              error={Boolean(err(n, field))}
              helperText={err(n, field)}
              fullWidth
              size="small"
              data-testid={`runner-${n}-${String(field)}`}
            />
          ) : (
            <TextField
              label={`${t(label)}${required.has(field as never) ? ` (${t('form.required')})` : ''}`}
              type={type}
              value={(r[field] as string | null) ?? ''}
              onChange={(e) => set(n, { [field]: e.target.value } as Partial<Runner>)}
              error={Boolean(err(n, field))}
              helperText={err(n, field)}
              fullWidth
              size="small"
            />
          );
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: a runner's position is its identity (added and removed at the end)
          <Paper key={n} variant="outlined" sx={{ p: 2, mb: 2 }} data-testid={`runner-${n}`}>
            <Stack spacing={1.5}>
              <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center' }}>
                <Typography variant="subtitle1" component="h3">
                  {t('form.runner', { n: n + 1 })}
                </Typography>
                {n > 0 && (
                  <Button size="small" onClick={() => setRunners((rs) => rs.filter((_, k) => k !== n))}>
                    {t('form.removeRunner')}
                  </Button>
                )}
              </Stack>
              <TextField
                select
                label={t('form.race')}
                value={r.raceId}
                onChange={(e) => set(n, { raceId: e.target.value })}
                error={Boolean(err(n, 'raceId'))}
                helperText={err(n, 'raceId')}
                size="small"
              >
                {page.races.map((x) => (
                  <MenuItem key={x.raceId} value={x.raceId} disabled={!x.open}>
                    {x.name} — {money(x.priceCents)}
                  </MenuItem>
                ))}
              </TextField>
              {text('firstName', 'form.firstName')}
              {text('lastName', 'form.lastName')}
              {text('email', 'form.email', 'email')}
              {text('birthDate', 'form.birthDate', 'date')}
              <TextField
                select
                label={`${t('form.gender')}${required.has('gender') ? ` (${t('form.required')})` : ''}`}
                value={r.gender ?? ''}
                onChange={(e) => set(n, { gender: (e.target.value || null) as Runner['gender'] })}
                error={Boolean(err(n, 'gender'))}
                helperText={err(n, 'gender')}
                size="small"
              >
                {(['F', 'M', 'X'] as const).map((g) => (
                  <MenuItem key={g} value={g}>
                    {t(`form.genders.${g}`)}
                  </MenuItem>
                ))}
              </TextField>
              {(['nationality', 'club', 'licence', 'emergencyContact', 'phone'] as const)
                .filter((f) => required.has(f) || f === 'club')
                .map((f) => (
                  <Box key={f}>{text(f, `form.${f}`)}</Box>
                ))}
              {race?.guardianForMinors && (
                <>
                  {text('guardianName', 'form.guardianName')}
                  {text('guardianEmail', 'form.guardianEmail', 'email')}
                </>
              )}
              {page.questions.map((q) => (
                <Question
                  key={q.key}
                  question={q}
                  value={r.answers[q.key]}
                  error={err(n, `answers.${q.key}`)}
                  onChange={(v) => set(n, { answers: { ...r.answers, [q.key]: v } })}
                />
              ))}
              {page.addOns.length > 0 && (
                <Box>
                  <Typography variant="subtitle2">{t('form.addOns')}</Typography>
                  {page.addOns.map((a) => (
                    <FormControlLabel
                      key={a.key}
                      control={
                        <Checkbox
                          checked={(r.addOns[a.key] ?? 0) > 0}
                          onChange={(e) =>
                            set(n, { addOns: { ...r.addOns, [a.key]: e.target.checked ? 1 : 0 } })
                          }
                        />
                      }
                      label={`${a.name} — ${money(a.priceCents)}`}
                    />
                  ))}
                  {err(n, 'addOns') && <Alert severity="error">{err(n, 'addOns')}</Alert>}
                </Box>
              )}
              {text('discountCode', 'form.discountCode')}
            </Stack>
          </Paper>
        );
      })}
      <Button onClick={() => setRunners((rs) => [...rs, blank(raceId)])} sx={{ mb: 2 }}>
        {t('form.addRunner')}
      </Button>
      {page.waiver && (
        <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
          <Typography variant="subtitle2">{t('form.waiver')}</Typography>
          <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', my: 1 }}>
            {page.waiver.body}
          </Typography>
          <FormControlLabel
            control={<Checkbox checked={waiver} onChange={(e) => setWaiver(e.target.checked)} />}
            label={t('form.acceptWaiver')}
          />
          {fieldText(t, error, 'runners.0.waiver') && (
            <Alert severity="error">{fieldText(t, error, 'runners.0.waiver')}</Alert>
          )}
        </Paper>
      )}
      {problem && (
        <Alert severity="error" role="alert" sx={{ mb: 2 }}>
          {problem}
        </Alert>
      )}
      {creditLine && credit && (
        <Alert severity="info" sx={{ mb: 2 }} data-testid="credit-summary">
          <Typography variant="body2" sx={{ fontWeight: 500 }}>
            {t('form.creditSummary', {
              credit: money(credit.cents),
              price: money(creditLine.price),
              pay: money(creditLine.pay),
            })}
          </Typography>
          {creditLine.rest > 0 && (
            <Typography variant="body2" data-testid="credit-rest">
              {t('form.creditRest', { amount: money(creditLine.rest) })}
            </Typography>
          )}
          {creditLine.kept && <Typography variant="body2">{t('form.placeKept')}</Typography>}
        </Alert>
      )}
      <Button type="submit" variant="contained" size="large" fullWidth disabled={busy}>
        {t('form.submit')}
      </Button>
    </Box>
  );
}

/** One of the organiser's questions, as its kind asks. */
function Question({
  question: q,
  value,
  error,
  onChange,
}: {
  question: RegistrationPage['questions'][number];
  value: unknown;
  error: string | undefined;
  onChange: (v: Answer) => void;
}) {
  const { t } = useTranslation('entries');
  const label = `${q.label}${q.required ? ` (${t('form.required')})` : ''}`;
  if (q.kind === 'one' || q.kind === 'yesno') {
    const options = q.kind === 'yesno' ? ['yes', 'no'] : q.options;
    const current =
      q.kind === 'yesno' ? (value === true ? 'yes' : value === false ? 'no' : '') : ((value as string) ?? '');
    return (
      <TextField
        select
        label={label}
        value={current}
        onChange={(e) => onChange(q.kind === 'yesno' ? e.target.value === 'yes' : e.target.value)}
        error={Boolean(error)}
        helperText={error}
        size="small"
      >
        {options.map((o) => (
          <MenuItem key={o} value={o}>
            {q.kind === 'yesno' ? t(`form.${o}`) : o}
          </MenuItem>
        ))}
      </TextField>
    );
  }
  if (q.kind === 'several') {
    const list = (value as string[] | undefined) ?? [];
    return (
      <Box>
        <Typography variant="body2">{label}</Typography>
        {q.options.map((o) => (
          <FormControlLabel
            key={o}
            control={
              <Checkbox
                checked={list.includes(o)}
                onChange={(e) => onChange(e.target.checked ? [...list, o] : list.filter((x) => x !== o))}
              />
            }
            label={o}
          />
        ))}
        {error && <Alert severity="error">{error}</Alert>}
      </Box>
    );
  }
  if (q.kind === 'date')
    return (
      <DateInput
        label={label}
        value={(value as string | undefined) ?? null}
        onChange={(v) => onChange(v ?? '')}
        error={Boolean(error)}
        helperText={error}
        size="small"
      />
    );
  return (
    <TextField
      label={label}
      type={q.kind === 'number' ? 'number' : 'text'}
      value={(value as string | number | undefined) ?? ''}
      onChange={(e) => onChange(q.kind === 'number' ? Number(e.target.value) : e.target.value)}
      error={Boolean(error)}
      helperText={error}
      size="small"
    />
  );
}
