import {
  Accordion,
  AccordionDetails,
  AccordionSummary,
  Alert,
  Box,
  Button,
  Checkbox,
  FormControlLabel,
  FormGroup,
  FormLabel,
  IconButton,
  MenuItem,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import {
  entryFieldNames,
  questionKinds,
  type RegistrationSettingsInput,
  type RegistrationSettingsView,
} from '@tempora/contracts';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateInput, toTyped } from '../../../components/date-input.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useSaveRegistrationSettings } from '../api/entries.ts';
import { KeptPlaces } from './kept-places.tsx';
import { fromZoneInput, toZoneInput } from './zone-time.ts';

type Settings = RegistrationSettingsInput;
type Race = Settings['races'][number];
type Policy = NonNullable<Settings['policy']>;
type Question = NonNullable<Settings['questions']>[number];
type AddOn = NonNullable<Settings['addOns']>[number];
type Code = NonNullable<Settings['codes']>[number];

/** The settings as the organiser edits them: the view without its counters. */
export function editable(view: RegistrationSettingsView): Settings {
  return {
    holdMinutes: view.holdMinutes,
    waitlistMinutes: view.waitlistMinutes,
    payOnSite: view.payOnSite,
    currency: view.currency,
    policy: view.policy,
    races: view.races.map(({ taken: _t, held: _h, kept: _k, ...r }) => r),
    questions: view.questions,
    addOns: view.addOns.map(({ taken: _t, held: _h, ...a }) => a),
    codes: view.codes.map(({ taken: _t, held: _h, ...c }) => c),
    waiver: view.waiver,
    nextEventId: view.nextEventId,
    keptPlaces: [],
  };
}

/** A key from a label: lower case letters, digits and dashes (questions', add-ons' keys). */
const keyOf = (label: string, taken: readonly string[]) => {
  const base =
    label
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 30) || 'item';
  let key = base;
  for (let n = 2; taken.includes(key); n++) key = `${base}-${n}`;
  return key;
};

const centsOf = (v: string) => Math.max(0, Math.round(Number(v.replace(',', '.')) * 100) || 0);
const unitsOf = (c: number | undefined) => ((c ?? 0) / 100).toString();
const intOrNull = (v: string) => (v.trim() === '' ? null : Math.max(0, Math.trunc(Number(v)) || 0));

/**
 * The registration settings of an event as a form (issue 38): per race the opening and closing
 * times (in the event's time zone), places, price tiers by date, age limits, required fields, a
 * guardian for minors and the team size; the organiser's questions (shown on the start list or
 * private), add-ons with stock, the waiver (a change is a new version), discount codes, the
 * self-service policy with its dates, fees and refund tiers, paying on site and the hold. The
 * server checks every field; its problem+json errors are shown on their fields.
 */
export function SettingsForm({
  eventId,
  view,
  timeZone,
  races,
}: {
  eventId: string;
  view: RegistrationSettingsView;
  timeZone: string;
  /** The event's races (id and name), those without registration included. */
  races: readonly { id: string; name: string }[];
}) {
  const { t } = useTranslation('entries');
  const save = useSaveRegistrationSettings(eventId);
  const [s, setS] = useState<Settings>(() => editable(view));
  useEffect(() => setS(editable(view)), [view]);
  const fieldErrors = save.error instanceof ApiError ? save.error.fieldErrors : {};
  const shown = new Set<string>();
  /** The server's message of a field (its code in the page's words); marks it shown. */
  const err = (path: string): string | undefined => {
    const codes = fieldErrors[path];
    if (!codes?.length) return undefined;
    shown.add(path);
    return codes
      .map((c) => t(`settings.errors.${c}`, { defaultValue: t(`errors.${c}`, { defaultValue: c }) }))
      .join(' ');
  };
  const set = (patch: Partial<Settings>) => setS((x) => ({ ...x, ...patch }));
  const policy: Policy = s.policy ?? { refund: { kind: 'none' } };
  const setPolicy = (patch: Partial<Policy>) => set({ policy: { ...policy, ...patch } });
  const setRace = (n: number, patch: Partial<Race>) =>
    set({ races: s.races.map((r, k) => (k === n ? { ...r, ...patch } : r)) });
  const list = <T,>(key: 'questions' | 'addOns' | 'codes', items: T[]) =>
    set({ [key]: items } as Partial<Settings>);
  const questions = s.questions ?? [];
  const addOns = s.addOns ?? [];
  const codes = s.codes ?? [];
  const raceName = (id: string) => races.find((r) => r.id === id)?.name ?? id;
  const unregistered = races.filter((r) => !s.races.some((x) => x.raceId === r.id));
  const keptIn = (raceId: string) => view.races.find((r) => r.raceId === raceId)?.kept ?? 0;
  const zone = (iso: string | null | undefined) => (iso ? toZoneInput(iso, timeZone) : '');
  const instant = (v: string) => (v ? fromZoneInput(v, timeZone) : null);
  const date = (
    label: string,
    value: string | null | undefined,
    onChange: (v: string | null) => void,
    path: string,
  ) => (
    <DateInput
      label={label}
      value={value}
      onChange={onChange}
      error={Boolean(err(path))}
      helperText={err(path)}
      size="small"
      fullWidth
    />
  );
  const number = (
    label: string,
    value: number | null | undefined,
    onChange: (v: number | null) => void,
    path: string,
    helper?: string,
  ) => (
    <TextField
      label={label}
      type="number"
      value={value ?? ''}
      onChange={(e) => onChange(intOrNull(e.target.value))}
      error={Boolean(err(path))}
      helperText={err(path) ?? helper}
      size="small"
      slotProps={{ htmlInput: { min: 0, inputMode: 'numeric' } }}
      fullWidth
    />
  );
  const money = (label: string, cents: number | undefined, onChange: (c: number) => void, path: string) => (
    <TextField
      label={`${label} (${s.currency ?? 'EUR'})`}
      type="number"
      value={unitsOf(cents)}
      onChange={(e) => onChange(centsOf(e.target.value))}
      error={Boolean(err(path))}
      helperText={err(path)}
      size="small"
      slotProps={{ htmlInput: { min: 0, step: 0.01, inputMode: 'decimal' } }}
      fullWidth
    />
  );
  const refund = policy.refund ?? { kind: 'none' as const };
  const tiers = refund.kind === 'tiers' ? refund.tiers : [];

  const body = (
    <Stack spacing={2}>
      <Section title={t('settings.general')}>
        <Row>
          {number(
            t('settings.holdMinutes'),
            s.holdMinutes,
            (v) => set({ holdMinutes: v ?? 15 }),
            'holdMinutes',
          )}
          {number(
            t('settings.waitlistMinutes'),
            s.waitlistMinutes,
            (v) => set({ waitlistMinutes: v ?? 1440 }),
            'waitlistMinutes',
          )}
          <TextField
            label={t('settings.currency')}
            value={s.currency ?? 'EUR'}
            onChange={(e) => set({ currency: e.target.value.toUpperCase().slice(0, 3) })}
            error={Boolean(err('currency'))}
            helperText={err('currency')}
            size="small"
            fullWidth
          />
        </Row>
        <FormControlLabel
          control={
            <Checkbox checked={Boolean(s.payOnSite)} onChange={(e) => set({ payOnSite: e.target.checked })} />
          }
          label={t('settings.payOnSite')}
        />
      </Section>

      <Section title={t('settings.races')} help={t('settings.zone', { zone: timeZone })}>
        {s.races.map((r, n) => {
          const p = `races.${n}.`;
          const tiersOf = r.prices.tiers;
          return (
            <Paper
              key={r.raceId}
              variant="outlined"
              sx={{ p: 1.5 }}
              data-testid={`settings-race-${r.raceId}`}
            >
              <Stack spacing={1.5}>
                <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
                  <Typography variant="subtitle1" component="h3">
                    {raceName(r.raceId)}
                  </Typography>
                  {keptIn(r.raceId) > 0 && (
                    <Typography variant="body2" color="text.secondary" sx={{ flex: 1, mx: 1 }}>
                      {t('settings.keptPlaces.here', { count: keptIn(r.raceId) })}
                    </Typography>
                  )}
                  <Button size="small" onClick={() => set({ races: s.races.filter((_, k) => k !== n) })}>
                    {t('settings.removeRace')}
                  </Button>
                </Stack>
                {err(`${p}raceId`) && <Alert severity="error">{err(`${p}raceId`)}</Alert>}
                <Row>
                  <DateInput
                    time
                    label={t('settings.opensAt')}
                    value={zone(r.opensAt)}
                    onChange={(v) => setRace(n, { opensAt: instant(v ?? '') })}
                    error={Boolean(err(`${p}opensAt`))}
                    helperText={err(`${p}opensAt`)}
                    size="small"
                    fullWidth
                  />
                  <DateInput
                    time
                    label={t('settings.closesAt')}
                    value={zone(r.closesAt)}
                    onChange={(v) => setRace(n, { closesAt: instant(v ?? '') })}
                    error={Boolean(err(`${p}closesAt`))}
                    helperText={err(`${p}closesAt`)}
                    size="small"
                    fullWidth
                  />
                </Row>
                <Row>
                  {number(
                    t('settings.places'),
                    r.capacity,
                    (v) => setRace(n, { capacity: v }),
                    `${p}capacity`,
                    t('settings.emptyNoLimit'),
                  )}
                  {number(t('settings.minAge'), r.minAge, (v) => setRace(n, { minAge: v }), `${p}minAge`)}
                  {number(t('settings.maxAge'), r.maxAge, (v) => setRace(n, { maxAge: v }), `${p}maxAge`)}
                </Row>
                <FormLabel component="legend" sx={{ typography: 'subtitle2' }}>
                  {t('settings.priceTiers')}
                </FormLabel>
                {err(`${p}prices`) && <Alert severity="error">{err(`${p}prices`)}</Alert>}
                {tiersOf.map((tier, k) => (
                  <Stack
                    // biome-ignore lint/suspicious/noArrayIndexKey: tiers are edited in place, added and removed at the end
                    key={k}
                    direction="row"
                    spacing={1}
                    useFlexGap
                    sx={{ alignItems: 'flex-start', flexWrap: 'wrap' }}
                    data-testid="price-tier"
                  >
                    <DateInput
                      time
                      label={t('settings.tierFrom')}
                      value={zone(tier.from)}
                      onChange={(v) =>
                        setRace(n, {
                          prices: {
                            ...r.prices,
                            tiers: tiersOf.map((x, j) =>
                              j === k ? { ...x, from: instant(v ?? '') ?? x.from } : x,
                            ),
                          },
                        })
                      }
                      error={Boolean(err(`${p}prices.tiers.${k}.from`))}
                      helperText={err(`${p}prices.tiers.${k}.from`)}
                      size="small"
                      // "31/12/2027 23:30" whole: on a narrow phone the price goes under it.
                      sx={{ flex: '3 1 190px' }}
                    />
                    <Box sx={{ flex: '2 1 96px' }}>
                      {money(
                        t('settings.price'),
                        tier.cents,
                        (c) =>
                          setRace(n, {
                            prices: {
                              ...r.prices,
                              tiers: tiersOf.map((x, j) => (j === k ? { ...x, cents: c } : x)),
                            },
                          }),
                        `${p}prices.tiers.${k}.cents`,
                      )}
                    </Box>
                    <IconButton
                      aria-label={t('settings.removeTier')}
                      disabled={tiersOf.length <= 1}
                      onClick={() =>
                        setRace(n, { prices: { ...r.prices, tiers: tiersOf.filter((_, j) => j !== k) } })
                      }
                    >
                      ×
                    </IconButton>
                  </Stack>
                ))}
                <Button
                  size="small"
                  sx={{ alignSelf: 'flex-start' }}
                  onClick={() =>
                    setRace(n, {
                      prices: {
                        ...r.prices,
                        tiers: [
                          ...tiersOf,
                          { from: new Date().toISOString(), cents: tiersOf.at(-1)?.cents ?? 0 },
                        ],
                      },
                    })
                  }
                >
                  {t('settings.addTier')}
                </Button>
                <FormLabel component="legend" sx={{ typography: 'subtitle2' }}>
                  {t('settings.required')}
                </FormLabel>
                <FormGroup row>
                  {entryFieldNames.map((f) => (
                    <FormControlLabel
                      key={f}
                      control={
                        <Checkbox
                          checked={(r.required ?? []).includes(f)}
                          onChange={(e) =>
                            setRace(n, {
                              required: e.target.checked
                                ? [...(r.required ?? []), f]
                                : (r.required ?? []).filter((x) => x !== f),
                            })
                          }
                        />
                      }
                      label={t(`form.${f}`)}
                    />
                  ))}
                </FormGroup>
                <FormControlLabel
                  control={
                    <Checkbox
                      checked={Boolean(r.guardianForMinors)}
                      onChange={(e) => setRace(n, { guardianForMinors: e.target.checked })}
                    />
                  }
                  label={t('settings.guardian')}
                />
                {number(
                  t('settings.teamSize'),
                  r.teamSize,
                  (v) => setRace(n, { teamSize: v }),
                  `${p}teamSize`,
                  t('settings.teamSizeHelp'),
                )}
              </Stack>
            </Paper>
          );
        })}
        <KeptPlaces
          view={view}
          listed={s.races.map((r) => r.raceId)}
          raceName={raceName}
          value={s.keptPlaces ?? []}
          onChange={(keptPlaces) => set({ keptPlaces })}
          errors={Object.fromEntries(view.races.map((r) => [r.raceId, err(`keptPlaces.${r.raceId}`)]))}
        />
        {unregistered.length > 0 && (
          <TextField
            select
            label={t('settings.addRace')}
            value=""
            onChange={(e) =>
              set({
                races: [
                  ...s.races,
                  {
                    raceId: e.target.value,
                    opensAt: new Date().toISOString(),
                    closesAt: null,
                    capacity: null,
                    prices: { tiers: [{ from: new Date().toISOString(), cents: 0 }] },
                    minAge: null,
                    maxAge: null,
                    required: [],
                    guardianForMinors: false,
                    teamSize: null,
                  },
                ],
              })
            }
            size="small"
          >
            {unregistered.map((r) => (
              <MenuItem key={r.id} value={r.id}>
                {r.name}
              </MenuItem>
            ))}
          </TextField>
        )}
      </Section>

      <Section title={t('settings.questions')}>
        {questions.map((q, n) => {
          const p = `questions.${n}.`;
          const setQ = (patch: Partial<Question>) =>
            list(
              'questions',
              questions.map((x, k) => (k === n ? { ...x, ...patch } : x)),
            );
          return (
            <Paper key={q.key} variant="outlined" sx={{ p: 1.5 }} data-testid="settings-question">
              <Stack spacing={1.5}>
                <TextField
                  label={t('settings.questionLabel')}
                  value={q.label}
                  onChange={(e) => setQ({ label: e.target.value })}
                  error={Boolean(err(`${p}label`) ?? err(`${p}key`))}
                  helperText={err(`${p}label`) ?? err(`${p}key`)}
                  size="small"
                  fullWidth
                />
                <Row>
                  <TextField
                    select
                    label={t('settings.questionKind')}
                    value={q.kind}
                    onChange={(e) => setQ({ kind: e.target.value as Question['kind'] })}
                    size="small"
                    fullWidth
                  >
                    {questionKinds.map((k) => (
                      <MenuItem key={k} value={k}>
                        {t(`settings.kinds.${k}`)}
                      </MenuItem>
                    ))}
                  </TextField>
                  {(q.kind === 'one' || q.kind === 'several') && (
                    <TextField
                      label={t('settings.options')}
                      value={(q.options ?? []).join(', ')}
                      onChange={(e) => setQ({ options: e.target.value.split(',').map((o) => o.trimStart()) })}
                      onBlur={() => setQ({ options: (q.options ?? []).map((o) => o.trim()).filter(Boolean) })}
                      error={Boolean(err(`${p}options`))}
                      helperText={err(`${p}options`) ?? t('settings.optionsHelp')}
                      size="small"
                      fullWidth
                    />
                  )}
                </Row>
                <FormGroup row>
                  <FormControlLabel
                    control={
                      <Checkbox
                        checked={Boolean(q.required)}
                        onChange={(e) => setQ({ required: e.target.checked })}
                      />
                    }
                    label={t('settings.questionRequired')}
                  />
                  <FormControlLabel
                    control={
                      <Checkbox
                        checked={Boolean(q.public)}
                        onChange={(e) => setQ({ public: e.target.checked })}
                      />
                    }
                    label={t('settings.questionPublic')}
                  />
                </FormGroup>
                <Button
                  size="small"
                  sx={{ alignSelf: 'flex-start' }}
                  onClick={() =>
                    list(
                      'questions',
                      questions.filter((_, k) => k !== n),
                    )
                  }
                >
                  {t('settings.remove')}
                </Button>
              </Stack>
            </Paper>
          );
        })}
        <Button
          sx={{ alignSelf: 'flex-start' }}
          onClick={() =>
            list('questions', [
              ...questions,
              {
                key: keyOf(
                  `q${questions.length + 1}`,
                  questions.map((q) => q.key),
                ),
                label: '',
                kind: 'text',
                options: [],
                required: false,
                public: false,
              },
            ])
          }
        >
          {t('settings.addQuestion')}
        </Button>
      </Section>

      <Section title={t('settings.addOns')}>
        {addOns.map((a, n) => {
          const p = `addOns.${n}.`;
          const setA = (patch: Partial<AddOn>) =>
            list(
              'addOns',
              addOns.map((x, k) => (k === n ? { ...x, ...patch } : x)),
            );
          return (
            <Paper key={a.key} variant="outlined" sx={{ p: 1.5 }} data-testid="settings-addon">
              <Stack spacing={1.5}>
                <TextField
                  label={t('settings.addOnName')}
                  value={a.name}
                  onChange={(e) => setA({ name: e.target.value })}
                  error={Boolean(err(`${p}name`) ?? err(`${p}key`))}
                  helperText={err(`${p}name`) ?? err(`${p}key`)}
                  size="small"
                  fullWidth
                />
                <Row>
                  {money(t('settings.price'), a.priceCents, (c) => setA({ priceCents: c }), `${p}priceCents`)}
                  {number(
                    t('settings.stock'),
                    a.capacity,
                    (v) => setA({ capacity: v }),
                    `${p}capacity`,
                    t('settings.emptyNoLimit'),
                  )}
                </Row>
                <Button
                  size="small"
                  sx={{ alignSelf: 'flex-start' }}
                  onClick={() =>
                    list(
                      'addOns',
                      addOns.filter((_, k) => k !== n),
                    )
                  }
                >
                  {t('settings.remove')}
                </Button>
              </Stack>
            </Paper>
          );
        })}
        <Button
          sx={{ alignSelf: 'flex-start' }}
          onClick={() =>
            list('addOns', [
              ...addOns,
              {
                key: keyOf(
                  `addon-${addOns.length + 1}`,
                  addOns.map((a) => a.key),
                ),
                name: '',
                priceCents: 0,
                capacity: null,
              },
            ])
          }
        >
          {t('settings.addAddOn')}
        </Button>
      </Section>

      <Section
        title={t('settings.waiver')}
        help={view.waiverVersion ? t('settings.waiverVersion', { version: view.waiverVersion }) : undefined}
      >
        <TextField
          label={t('settings.waiverText')}
          multiline
          minRows={3}
          value={s.waiver ?? ''}
          onChange={(e) => set({ waiver: e.target.value })}
          error={Boolean(err('waiver'))}
          helperText={err('waiver') ?? t('settings.waiverHelp')}
          fullWidth
        />
      </Section>

      <Section title={t('settings.codes')}>
        {err('codes') && <Alert severity="error">{err('codes')}</Alert>}
        {codes.map((c, n) => {
          const p = `codes.${n}.`;
          const setC = (patch: Partial<Code>) =>
            list(
              'codes',
              codes.map((x, k) => (k === n ? { ...x, ...patch } : x)),
            );
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: a code's text is edited, its position is its identity
            <Paper key={n} variant="outlined" sx={{ p: 1.5 }} data-testid="settings-code">
              <Stack spacing={1.5}>
                <Row>
                  <TextField
                    label={t('settings.code')}
                    value={c.code}
                    onChange={(e) => setC({ code: e.target.value.toUpperCase() })}
                    error={Boolean(err(`${p}code`))}
                    helperText={err(`${p}code`)}
                    size="small"
                    fullWidth
                  />
                  <TextField
                    select
                    label={t('settings.codeRace')}
                    value={c.raceId ?? ''}
                    onChange={(e) => setC({ raceId: e.target.value || null })}
                    slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
                    error={Boolean(err(`${p}raceId`))}
                    helperText={err(`${p}raceId`)}
                    size="small"
                    fullWidth
                  >
                    <MenuItem value="">{t('settings.allRaces')}</MenuItem>
                    {s.races.map((r) => (
                      <MenuItem key={r.raceId} value={r.raceId}>
                        {raceName(r.raceId)}
                      </MenuItem>
                    ))}
                  </TextField>
                </Row>
                <Row>
                  <TextField
                    select
                    label={t('settings.codeKind')}
                    value={c.kind}
                    onChange={(e) => setC({ kind: e.target.value as Code['kind'] })}
                    size="small"
                    fullWidth
                  >
                    <MenuItem value="percent">{t('settings.percent')}</MenuItem>
                    <MenuItem value="amount">{t('settings.amount')}</MenuItem>
                  </TextField>
                  {c.kind === 'percent'
                    ? number(t('settings.percentValue'), c.value, (v) => setC({ value: v ?? 0 }), `${p}value`)
                    : money(t('settings.amountValue'), c.value, (v) => setC({ value: v }), `${p}value`)}
                  {number(
                    t('settings.uses'),
                    c.capacity,
                    (v) => setC({ capacity: v }),
                    `${p}capacity`,
                    t('settings.emptyNoLimit'),
                  )}
                </Row>
                <Row>
                  <DateInput
                    time
                    label={t('settings.validFrom')}
                    value={zone(c.validFrom)}
                    onChange={(v) => setC({ validFrom: instant(v ?? '') })}
                    size="small"
                    fullWidth
                  />
                  <DateInput
                    time
                    label={t('settings.validUntil')}
                    value={zone(c.validUntil)}
                    onChange={(v) => setC({ validUntil: instant(v ?? '') })}
                    size="small"
                    fullWidth
                  />
                </Row>
                <Button
                  size="small"
                  sx={{ alignSelf: 'flex-start' }}
                  onClick={() =>
                    list(
                      'codes',
                      codes.filter((_, k) => k !== n),
                    )
                  }
                >
                  {t('settings.remove')}
                </Button>
              </Stack>
            </Paper>
          );
        })}
        <Button
          sx={{ alignSelf: 'flex-start' }}
          onClick={() =>
            list('codes', [
              ...codes,
              {
                code: '',
                raceId: null,
                kind: 'percent',
                value: 10,
                capacity: null,
                validFrom: null,
                validUntil: null,
              },
            ])
          }
        >
          {t('settings.addCode')}
        </Button>
      </Section>

      <Section title={t('settings.policy')}>
        <Row>
          {date(
            t('settings.editUntil'),
            policy.editUntil,
            (v) => setPolicy({ editUntil: v }),
            'policy.editUntil',
          )}
          {date(
            t('settings.moveUntil'),
            policy.moveUntil,
            (v) => setPolicy({ moveUntil: v }),
            'policy.moveUntil',
          )}
        </Row>
        <Row>
          {date(
            t('settings.transferUntil'),
            policy.transferUntil,
            (v) => setPolicy({ transferUntil: v }),
            'policy.transferUntil',
          )}
          {money(
            t('settings.transferFee'),
            policy.transferFeeCents,
            (c) => setPolicy({ transferFeeCents: c }),
            'policy.transferFeeCents',
          )}
        </Row>
        <Row>
          {date(
            t('settings.deferUntil'),
            policy.deferUntil,
            (v) => setPolicy({ deferUntil: v }),
            'policy.deferUntil',
          )}
          {money(
            t('settings.deferFee'),
            policy.deferFeeCents,
            (c) => setPolicy({ deferFeeCents: c }),
            'policy.deferFeeCents',
          )}
        </Row>
        <TextField
          select
          label={t('settings.nextEdition')}
          value={s.nextEventId ?? ''}
          onChange={(e) => set({ nextEventId: e.target.value || null })}
          error={Boolean(err('nextEventId'))}
          helperText={
            err('nextEventId') ??
            t('settings.nextEditionHelp', { deferred: view.credits.deferred, issued: view.credits.issued })
          }
          size="small"
          fullWidth
          slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
          data-testid="next-edition"
        >
          <MenuItem value="">{t('settings.noNextEdition')}</MenuItem>
          {view.editions.map((e) => (
            <MenuItem key={e.eventId} value={e.eventId}>
              {e.name} ({toTyped(e.startDate)})
            </MenuItem>
          ))}
        </TextField>
        {view.credits.kept > 0 && (
          <Typography variant="body2" color="text.secondary" data-testid="credits-kept">
            {t('settings.creditsKept', { count: view.credits.kept })}
          </Typography>
        )}
        {date(
          t('settings.cancelUntil'),
          policy.cancelUntil,
          (v) => setPolicy({ cancelUntil: v }),
          'policy.cancelUntil',
        )}
        <TextField
          select
          label={t('settings.refund')}
          value={refund.kind}
          onChange={(e) => {
            const kind = e.target.value as 'none' | 'full' | 'tiers';
            setPolicy({
              refund:
                kind === 'tiers'
                  ? {
                      kind,
                      tiers: tiers.length
                        ? tiers
                        : [
                            {
                              until: policy.cancelUntil ?? new Date().toISOString().slice(0, 10),
                              percent: 100,
                            },
                          ],
                    }
                  : { kind },
            });
          }}
          error={Boolean(err('policy.refund'))}
          helperText={err('policy.refund')}
          size="small"
        >
          <MenuItem value="none">{t('settings.refundNone')}</MenuItem>
          <MenuItem value="full">{t('settings.refundFull')}</MenuItem>
          <MenuItem value="tiers">{t('settings.refundTiers')}</MenuItem>
        </TextField>
        {refund.kind === 'tiers' &&
          tiers.map((tier, k) => (
            <Stack
              // biome-ignore lint/suspicious/noArrayIndexKey: tiers are edited in place
              key={k}
              direction="row"
              spacing={1}
              sx={{ alignItems: 'flex-start' }}
              data-testid="refund-tier"
            >
              <Box sx={{ flex: 3 }}>
                {date(
                  t('settings.refundUntil'),
                  tier.until,
                  (v) =>
                    setPolicy({
                      refund: {
                        kind: 'tiers',
                        tiers: tiers.map((x, j) => (j === k ? { ...x, until: v ?? x.until } : x)),
                      },
                    }),
                  `policy.refund.tiers.${k}.until`,
                )}
              </Box>
              <Box sx={{ flex: 2 }}>
                {number(
                  t('settings.refundPercent'),
                  tier.percent,
                  (v) =>
                    setPolicy({
                      refund: {
                        kind: 'tiers',
                        tiers: tiers.map((x, j) => (j === k ? { ...x, percent: Math.min(100, v ?? 0) } : x)),
                      },
                    }),
                  `policy.refund.tiers.${k}.percent`,
                )}
              </Box>
              <IconButton
                aria-label={t('settings.removeTier')}
                disabled={tiers.length <= 1}
                onClick={() =>
                  setPolicy({ refund: { kind: 'tiers', tiers: tiers.filter((_, j) => j !== k) } })
                }
              >
                ×
              </IconButton>
            </Stack>
          ))}
        {refund.kind === 'tiers' && (
          <Button
            size="small"
            sx={{ alignSelf: 'flex-start' }}
            onClick={() =>
              setPolicy({
                refund: {
                  kind: 'tiers',
                  tiers: [...tiers, { until: tiers.at(-1)?.until ?? '', percent: 50 }],
                },
              })
            }
          >
            {t('settings.addRefundTier')}
          </Button>
        )}
      </Section>
    </Stack>
  );
  // Errors the form has no field for (shown together, with their path).
  const rest = Object.entries(fieldErrors).filter(([f]) => !shown.has(f));
  return (
    <Box
      component="form"
      noValidate
      onSubmit={(e: React.FormEvent) => {
        e.preventDefault();
        save.mutate(s);
      }}
    >
      {body}
      {save.isError && (
        <Alert severity="error" role="alert" sx={{ mt: 2 }}>
          {t('settings.fix')}
          {rest.map(([f, m]) => (
            <div key={f}>
              {f}: {m.map((c) => t(`errors.${c}`, { defaultValue: c })).join(', ')}
            </div>
          ))}
        </Alert>
      )}
      {save.isSuccess && (
        <Alert severity="success" sx={{ mt: 2 }}>
          {t('staff.saved')}
        </Alert>
      )}
      <Button type="submit" variant="contained" sx={{ mt: 2 }} disabled={save.isPending}>
        {t('staff.save')}
      </Button>
      <Accordion sx={{ mt: 3 }} variant="outlined" disableGutters>
        <AccordionSummary>{t('settings.json')}</AccordionSummary>
        <AccordionDetails>
          <JsonEditor value={s} onApply={(v) => setS(v)} />
        </AccordionDetails>
      </Accordion>
    </Box>
  );
}

/** A section of the form: a heading, an optional help line, its fields. */
function Section({
  title,
  help,
  children,
}: {
  title: string;
  help?: string | undefined;
  children: ReactNode;
}) {
  return (
    <Paper variant="outlined" component="section" sx={{ p: { xs: 1.5, sm: 2 } }}>
      <Typography variant="h6" component="h2">
        {title}
      </Typography>
      {help && (
        <Typography variant="body2" color="text.secondary">
          {help}
        </Typography>
      )}
      <Stack spacing={1.5} sx={{ mt: 1.5 }}>
        {children}
      </Stack>
    </Paper>
  );
}

/** Fields side by side on a wide screen, one under the other on a phone. */
function Row({ children }: { children: ReactNode }) {
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
      {children}
    </Stack>
  );
}

/** The whole settings as JSON (copying them from one event to another); applied to the form, then saved with it. */
function JsonEditor({ value, onApply }: { value: Settings; onApply: (v: Settings) => void }) {
  const { t } = useTranslation('entries');
  const [text, setText] = useState(() => JSON.stringify(value, null, 2));
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setText(JSON.stringify(value, null, 2)), [value]);
  return (
    <Stack spacing={1}>
      <TextField
        multiline
        minRows={8}
        maxRows={24}
        fullWidth
        value={text}
        onChange={(e) => setText(e.target.value)}
        slotProps={{
          htmlInput: { 'aria-label': t('settings.json'), style: { fontFamily: 'monospace', fontSize: 13 } },
        }}
      />
      {error && <Alert severity="error">{error}</Alert>}
      <Button
        sx={{ alignSelf: 'flex-start' }}
        onClick={() => {
          try {
            setError(null);
            onApply(JSON.parse(text) as Settings);
          } catch (e) {
            setError((e as Error).message);
          }
        }}
      >
        {t('settings.applyJson')}
      </Button>
    </Stack>
  );
}
