import { Alert, Box, Button, InputAdornment, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ConsoleRace, type RaceFormat, raceFormatKinds } from '@tempora/contracts';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { setRaceFormat } from '../api/races.ts';
import { fieldError, SaveError } from './form-state.tsx';

type Kind = (typeof raceFormatKinds)[number];
/** A field's unit, written at its end (`format.unitMin`…). */
type Unit = 'unitS' | 'unitM' | 'unitMin';

/** The form's fields as typed (strings), whatever the kind chosen. */
interface Draft {
  kind: Kind;
  lapPointKey: string;
  minLapS: string;
  lapLengthM: string;
  targetLaps: string;
  limitMinutes: string;
  partialLap: 'none' | 'measured';
  intervalMinutes: string;
  legKinds: Record<string, 'discipline' | 'transition'>;
  massStart: Record<string, string>;
  /** Cut-offs per leg's end point: minutes after the gun, minutes from the athlete's start. */
  cutoffGun: Record<string, string>;
  cutoffElapsed: Record<string, string>;
  cutoffOutcome: 'DNF' | 'overTime';
  /** A lap race's cut-off: lap N done by minutes after the gun and/or from the rider's start. */
  lapCutoffLaps: string;
  lapCutoffGun: string;
  lapCutoffElapsed: string;
  /** A road race's cut-off, minutes from each runner's own start (issue 43). */
  roadCutoff: string;
}

const str = (n: number | undefined) => (n === undefined ? '' : String(n));

function draftOf(race: ConsoleRace): Draft {
  const f = race.format;
  const finish = race.points.at(-1)?.key ?? '';
  return {
    kind: f.kind,
    lapPointKey: 'lapPointKey' in f ? f.lapPointKey : finish,
    minLapS: 'minLapS' in f ? String(f.minLapS) : '60',
    lapLengthM: 'lapLengthM' in f ? str(f.lapLengthM) : '',
    targetLaps: f.kind === 'laps' ? String(f.targetLaps) : '',
    limitMinutes: f.kind === 'timeLimited' ? String(f.limitMinutes) : '1440',
    partialLap: f.kind === 'timeLimited' ? f.partialLap : 'measured',
    intervalMinutes: f.kind === 'backyard' ? String(f.intervalMinutes) : '60',
    legKinds: Object.fromEntries(f.kind === 'multisport' ? f.legs.map((l) => [l.pointKey, l.kind]) : []),
    massStart: Object.fromEntries(
      f.kind === 'relay' ? f.legs.map((l) => [l.pointKey, str(l.massStartMinutes)]) : [],
    ),
    ...cutoffDraft(f),
    roadCutoff: f.kind === 'road' ? str(f.cutoffMinutes) : '',
  };
}

function cutoffDraft(
  f: RaceFormat,
): Pick<
  Draft,
  'cutoffGun' | 'cutoffElapsed' | 'cutoffOutcome' | 'lapCutoffLaps' | 'lapCutoffGun' | 'lapCutoffElapsed'
> {
  const list = 'cutoffs' in f ? (f.cutoffs ?? []) : [];
  const lap = 'lapCutoffs' in f ? f.lapCutoffs?.[0] : undefined;
  return {
    lapCutoffLaps: str(lap?.laps),
    lapCutoffGun: str(lap?.afterGunMinutes),
    lapCutoffElapsed: str(lap?.elapsedMinutes),
    cutoffGun: Object.fromEntries(list.map((c) => [c.pointKey, str(c.afterGunMinutes)])),
    cutoffElapsed: Object.fromEntries(list.map((c) => [c.pointKey, str(c.elapsedMinutes)])),
    cutoffOutcome: list[0]?.outcome ?? lap?.outcome ?? 'DNF',
  };
}

/** The cut-offs typed in the legs' rows (a leg with neither time has none). */
function cutoffsOf(
  d: Draft,
  race: ConsoleRace,
): NonNullable<Extract<RaceFormat, { kind: 'relay' }>['cutoffs']> {
  return race.points.slice(1).flatMap((p) => {
    const gun = d.cutoffGun[p.key]?.trim();
    const elapsed = d.cutoffElapsed[p.key]?.trim();
    if (!gun && !elapsed) return [];
    return [
      {
        pointKey: p.key,
        ...(gun ? { afterGunMinutes: num(gun) } : {}),
        ...(elapsed ? { elapsedMinutes: num(elapsed) } : {}),
        outcome: d.cutoffOutcome,
      },
    ];
  });
}

/** A typed number, or NaN for the server to refuse with a field error. */
const num = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

const withCutoffs = (d: Draft, race: ConsoleRace) => {
  const cutoffs = cutoffsOf(d, race);
  return cutoffs.length ? { cutoffs } : {};
};

/** The lap cut-off typed (none when its three fields are empty). */
function lapCutoffsOf(d: Draft) {
  const laps = d.lapCutoffLaps.trim();
  const gun = d.lapCutoffGun.trim();
  const elapsed = d.lapCutoffElapsed.trim();
  if (!laps && !gun && !elapsed) return {};
  return {
    lapCutoffs: [
      {
        laps: num(laps),
        ...(gun ? { afterGunMinutes: num(gun) } : {}),
        ...(elapsed ? { elapsedMinutes: num(elapsed) } : {}),
        outcome: d.cutoffOutcome,
      },
    ],
  };
}

function formatOf(d: Draft, race: ConsoleRace): RaceFormat {
  const lap = { lapPointKey: d.lapPointKey, minLapS: num(d.minLapS), ...lapCutoffsOf(d) };
  // Legs: one per timing point after the start, named after the point.
  const legPoints = race.points.slice(1);
  switch (d.kind) {
    case 'road':
      return { kind: 'road', ...(d.roadCutoff.trim() ? { cutoffMinutes: num(d.roadCutoff) } : {}) };
    case 'laps':
      return {
        kind: 'laps',
        ...lap,
        targetLaps: num(d.targetLaps),
        ...(d.lapLengthM.trim() ? { lapLengthM: num(d.lapLengthM) } : {}),
      };
    case 'timeLimited':
      return {
        kind: 'timeLimited',
        ...lap,
        lapLengthM: num(d.lapLengthM),
        limitMinutes: num(d.limitMinutes),
        partialLap: d.partialLap,
      };
    case 'backyard':
      return {
        kind: 'backyard',
        ...lap,
        lapLengthM: num(d.lapLengthM),
        intervalMinutes: num(d.intervalMinutes),
      };
    case 'multisport':
      return {
        kind: 'multisport',
        legs: legPoints.map((p) => ({
          pointKey: p.key,
          kind: d.legKinds[p.key] ?? 'discipline',
          name: p.name,
        })),
        ...withCutoffs(d, race),
      };
    case 'relay':
      return {
        kind: 'relay',
        legs: legPoints.map((p) => {
          const mass = d.massStart[p.key]?.trim();
          return { pointKey: p.key, name: p.name, ...(mass ? { massStartMinutes: num(mass) } : {}) };
        }),
        ...withCutoffs(d, race),
      };
  }
}

/**
 * The race's format (issue 31): a road race, laps (criterium, track), a time-limited race (6, 12,
 * 24 h), a backyard, multisport (triathlon…) or a relay, with the parameters each one needs.
 * Multisport and relay legs are the race's timing points after the start, in order.
 */
export function FormatForm({ race, editable }: { race: ConsoleRace; editable: boolean }) {
  const { t, i18n } = useTranslation('console');
  const client = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => draftOf(race));
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  const save = useMutation({
    mutationFn: (format: RaceFormat) => setRaceFormat(race.id, format),
    onSuccess: () => client.invalidateQueries({ queryKey: ['console', 'race', race.id] }),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(formatOf(draft, race));
  };
  const err = (...names: string[]) => fieldError(save.error, ...names);
  /** A cut-off's field error: the server names it by its place among the cut-offs sent. */
  const cutoffErr = (pointKey: string, field: string) => {
    const k = cutoffsOf(draft, race).findIndex((c) => c.pointKey === pointKey);
    return k < 0 ? undefined : err(`cutoffs.${k}.${field}`, `cutoffs.${k}`);
  };
  const pointName = (p: ConsoleRace['points'][number]) =>
    i18n.language.startsWith('fr') ? p.name.fr : p.name.en;
  const lapKind = draft.kind === 'laps' || draft.kind === 'timeLimited' || draft.kind === 'backyard';
  // Issue 43: labels were cut ("Mass start (minutes after t…"): a short label, the unit at the
  // end of the field and the rest of the meaning in the help beneath, which wraps.
  const unitOf = (unit: Unit | undefined) =>
    unit
      ? { input: { endAdornment: <InputAdornment position="end">{t(`format.${unit}`)}</InputAdornment> } }
      : {};
  const numberField = (key: keyof Draft, label: string, field: string = key, unit?: Unit, help?: string) => (
    <TextField
      label={label}
      value={draft[key] as string}
      onChange={(e) => set({ [key]: e.target.value } as Partial<Draft>)}
      disabled={!editable}
      inputMode="numeric"
      error={!!err(field)}
      helperText={err(field) ?? help}
      slotProps={unitOf(unit)}
      sx={{ minWidth: 200 }}
    />
  );
  return (
    <form onSubmit={submit} noValidate aria-label={t('format.title')}>
      <SaveError error={save.error} />
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t(`format.help.${draft.kind}`)}
      </Typography>
      <Stack spacing={2}>
        <TextField
          select
          label={t('format.kind')}
          value={draft.kind}
          onChange={(e) => set({ kind: e.target.value as Kind })}
          disabled={!editable}
          sx={{ maxWidth: 360 }}
        >
          {raceFormatKinds.map((k) => (
            <MenuItem key={k} value={k}>
              {t(`format.kinds.${k}`)}
            </MenuItem>
          ))}
        </TextField>
        {draft.kind === 'road' && (
          <Box sx={{ display: 'grid', maxWidth: 480 }}>
            {numberField(
              'roadCutoff',
              t('format.roadCutoff'),
              'cutoffMinutes',
              'unitMin',
              t('format.roadCutoffHelp'),
            )}
          </Box>
        )}
        {lapKind && (
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
            <TextField
              select
              label={t('format.lapPoint')}
              value={draft.lapPointKey}
              onChange={(e) => set({ lapPointKey: e.target.value })}
              disabled={!editable}
              error={!!err('lapPointKey')}
              helperText={err('lapPointKey')}
              sx={{ minWidth: 200 }}
            >
              {race.points.map((p) => (
                <MenuItem key={p.key} value={p.key}>
                  {pointName(p)}
                </MenuItem>
              ))}
            </TextField>
            {numberField('minLapS', t('format.minLapS'), 'minLapS', 'unitS', t('format.minLapSHelp'))}
            {numberField('lapLengthM', t('format.lapLengthM'), 'lapLengthM', 'unitM')}
            {draft.kind === 'laps' && numberField('targetLaps', t('format.targetLaps'))}
            {draft.kind === 'timeLimited' &&
              numberField('limitMinutes', t('format.limitMinutes'), 'limitMinutes', 'unitMin')}
            {draft.kind === 'timeLimited' && (
              <TextField
                select
                label={t('format.partialLap')}
                value={draft.partialLap}
                onChange={(e) => set({ partialLap: e.target.value as Draft['partialLap'] })}
                disabled={!editable}
                sx={{ minWidth: 220 }}
              >
                <MenuItem value="measured">{t('format.partial.measured')}</MenuItem>
                <MenuItem value="none">{t('format.partial.none')}</MenuItem>
              </TextField>
            )}
            {draft.kind === 'backyard' &&
              numberField('intervalMinutes', t('format.intervalMinutes'), 'intervalMinutes', 'unitMin')}
          </Stack>
        )}
        {lapKind && (
          <Stack
            direction={{ xs: 'column', sm: 'row' }}
            spacing={2}
            useFlexGap
            sx={{ flexWrap: 'wrap', alignItems: { sm: 'center' } }}
            role="group"
            aria-label={t('format.lapCutoff')}
          >
            <Typography sx={{ minWidth: 200 }}>{t('format.lapCutoff')}</Typography>
            {numberField('lapCutoffLaps', t('format.lapCutoffLaps'), 'lapCutoffs.0.laps')}
            {numberField('lapCutoffGun', t('format.cutoffGun'), 'lapCutoffs.0.afterGunMinutes', 'unitMin')}
            {numberField(
              'lapCutoffElapsed',
              t('format.cutoffElapsed'),
              'lapCutoffs.0.elapsedMinutes',
              'unitMin',
            )}
            <TextField
              select
              label={t('format.cutoffOutcome')}
              value={draft.cutoffOutcome}
              onChange={(e) => set({ cutoffOutcome: e.target.value as Draft['cutoffOutcome'] })}
              disabled={!editable}
              sx={{ minWidth: 200 }}
            >
              <MenuItem value="DNF">{t('format.cutoffOutcomes.DNF')}</MenuItem>
              <MenuItem value="overTime">{t('format.cutoffOutcomes.overTime')}</MenuItem>
            </TextField>
          </Stack>
        )}
        {(draft.kind === 'multisport' || draft.kind === 'relay') && (
          <LegsNeeded kind={draft.kind} legs={race.points.length - 1} error={err('legs')} />
        )}
        {(draft.kind === 'multisport' || draft.kind === 'relay') &&
          race.points.slice(1).map((p, k) => (
            <Stack
              key={p.key}
              direction={{ xs: 'column', sm: 'row' }}
              spacing={2}
              sx={{ alignItems: { sm: 'center' } }}
            >
              <Typography sx={{ minWidth: 200 }}>
                {t('format.legTo', { n: k + 1, point: pointName(p) })}
              </Typography>
              {draft.kind === 'multisport' ? (
                <TextField
                  select
                  label={t('format.legKind')}
                  value={draft.legKinds[p.key] ?? 'discipline'}
                  onChange={(e) =>
                    set({
                      legKinds: { ...draft.legKinds, [p.key]: e.target.value as 'discipline' | 'transition' },
                    })
                  }
                  disabled={!editable}
                  sx={{ minWidth: 200 }}
                >
                  <MenuItem value="discipline">{t('format.discipline')}</MenuItem>
                  <MenuItem value="transition">{t('format.transition')}</MenuItem>
                </TextField>
              ) : (
                <TextField
                  label={t('format.massStart')}
                  value={draft.massStart[p.key] ?? ''}
                  onChange={(e) => set({ massStart: { ...draft.massStart, [p.key]: e.target.value } })}
                  disabled={!editable}
                  inputMode="numeric"
                  error={!!err(`legs.${k}.massStartMinutes`)}
                  helperText={err(`legs.${k}.massStartMinutes`) ?? t('format.massStartHelp')}
                  slotProps={unitOf('unitMin')}
                  sx={{ minWidth: 200 }}
                />
              )}
              <TextField
                label={t('format.cutoffGun')}
                value={draft.cutoffGun[p.key] ?? ''}
                onChange={(e) => set({ cutoffGun: { ...draft.cutoffGun, [p.key]: e.target.value } })}
                disabled={!editable}
                inputMode="numeric"
                error={!!cutoffErr(p.key, 'afterGunMinutes')}
                helperText={cutoffErr(p.key, 'afterGunMinutes')}
                slotProps={unitOf('unitMin')}
                sx={{ minWidth: 240 }}
              />
              <TextField
                label={t('format.cutoffElapsed')}
                value={draft.cutoffElapsed[p.key] ?? ''}
                onChange={(e) => set({ cutoffElapsed: { ...draft.cutoffElapsed, [p.key]: e.target.value } })}
                disabled={!editable}
                inputMode="numeric"
                error={!!cutoffErr(p.key, 'elapsedMinutes')}
                helperText={cutoffErr(p.key, 'elapsedMinutes')}
                slotProps={unitOf('unitMin')}
                sx={{ minWidth: 240 }}
              />
            </Stack>
          ))}
        {(draft.kind === 'multisport' || draft.kind === 'relay') && (
          <TextField
            select
            label={t('format.cutoffOutcome')}
            value={draft.cutoffOutcome}
            onChange={(e) => set({ cutoffOutcome: e.target.value as Draft['cutoffOutcome'] })}
            disabled={!editable}
            sx={{ maxWidth: 360 }}
          >
            <MenuItem value="DNF">{t('format.cutoffOutcomes.DNF')}</MenuItem>
            <MenuItem value="overTime">{t('format.cutoffOutcomes.overTime')}</MenuItem>
          </TextField>
        )}
        {editable && (
          <div>
            <Button type="submit" variant="contained" disabled={save.isPending} sx={{ minHeight: 48 }}>
              {t('format.save')}
            </Button>
          </div>
        )}
      </Stack>
    </form>
  );
}

/** The fewest legs of each kind (the contracts' `raceFormatSchema`): a relay hands over at least once. */
const MIN_LEGS = { relay: 2, multisport: 1 } as const;

/**
 * Why a relay (or multisport) format cannot be saved yet, on the legs themselves with the way out
 * (issue 43: "Some fields need correcting (see below)" marked nothing): legs are the timing points
 * after the start, so a relay needs a point at each exchange. Shown before saving when the race
 * has too few points, and for the server's `legs` field error.
 */
function LegsNeeded({
  kind,
  legs,
  error,
}: {
  kind: 'relay' | 'multisport';
  legs: number;
  error: string | undefined;
}) {
  const { t } = useTranslation('console');
  if (legs >= MIN_LEGS[kind] && !error) return null;
  return (
    <Alert
      severity={error ? 'error' : 'warning'}
      data-testid="legs-needed"
      id="format-legs-error"
      action={
        <Button component={RouterLink} to={{ hash: 'race-points' }} color="inherit" size="small">
          {t('format.addPoints')}
        </Button>
      }
    >
      {t(`format.legsNeeded.${kind}`, { count: legs })}
    </Alert>
  );
}
