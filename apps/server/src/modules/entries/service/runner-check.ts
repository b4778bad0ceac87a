import type { RegistrationSettings, RunnerInput } from '@tempora/contracts';
import { type EntryField, eligibilityErrors, entryPrice, lineTotal } from '@tempora/domain';
import type { Sql } from '../../../db/database.ts';
import type { EntryAddOn, EntryDetails } from '../repository.ts';
import * as settingsRepo from '../settings-repository.ts';
import { checkAnswers } from './answers.ts';

/** What an event's entries are checked against, read once per request. */
export interface EntryRules {
  races: Map<string, settingsRepo.RaceRegistration>;
  addOns: Map<string, settingsRepo.AddOnRow>;
  questions: RegistrationSettings['questions'];
  waiver: { version: number; body: string } | null;
  /**
   * The organiser's discount codes by their upper-case text, when read with the rules (the rush:
   * entering reads them once a second, not once per runner with a code); others are looked up.
   */
  codes?: Map<string, settingsRepo.CodeRow>;
}

export async function entryRules(sql: Sql, eventId: string): Promise<EntryRules> {
  return {
    races: new Map((await settingsRepo.raceRegistrations(sql, eventId)).map((r) => [r.raceId, r])),
    addOns: new Map((await settingsRepo.addOnsOf(sql, eventId)).map((a) => [a.key, a])),
    questions: await settingsRepo.questionsOf(sql, eventId),
    waiver: await settingsRepo.currentWaiver(sql, eventId),
  };
}

/** Whether a race takes entries at `now` (its opening and closing times). */
export const raceOpen = (r: settingsRepo.RaceRegistration, now: Date) =>
  (!r.opensAt || Date.parse(r.opensAt) <= now.getTime()) &&
  (!r.closesAt || now.getTime() < Date.parse(r.closesAt));

/** A runner checked and priced: the entry to insert, or the errors on its fields. */
export interface CheckedRunner {
  race: settingsRepo.RaceRegistration;
  details: EntryDetails;
  answers: Record<string, unknown>;
  addOns: EntryAddOn[];
  code: settingsRepo.CodeRow | null;
  memberCode: string | null;
  entryCents: number;
  discountCents: number;
  addOnsCents: number;
  totalCents: number;
}

/**
 * Checks one runner of an order (prefix `runners.{n}.` on each field in error): the race open,
 * eligibility (age on race day, required fields, guardian, waiver), answers, add-ons still in
 * stock, the discount code valid; then prices it at `now` (domain `entryPrice`, `lineTotal`).
 * Stocks are only read here; the holds that count are taken in the order's transaction.
 */
export async function checkRunner(
  sql: Sql,
  eventId: string,
  rules: EntryRules,
  input: RunnerInput,
  prefix: string,
  now: Date,
  options: { ignoreOpening?: boolean; ignoreStock?: boolean } = {},
): Promise<{ runner: CheckedRunner | null; errors: { field: string; code: string }[] }> {
  const errors: { field: string; code: string }[] = [];
  const race = rules.races.get(input.raceId);
  if (!race) return { runner: null, errors: [{ field: `${prefix}raceId`, code: 'RACE_NOT_FOUND' }] };
  if (!options.ignoreOpening && !raceOpen(race, now))
    errors.push({ field: `${prefix}raceId`, code: 'RACE_CLOSED' });
  const eligibility = eligibilityErrors(
    {
      raceDay: race.raceDate,
      minAge: race.minAge,
      maxAge: race.maxAge,
      required: race.required as EntryField[],
      guardianForMinors: race.guardianForMinors,
      waiverVersion: options.ignoreOpening ? null : (rules.waiver?.version ?? null),
    },
    input,
  );
  errors.push(...eligibility.map((e) => ({ field: `${prefix}${e.field}`, code: e.code })));
  const answers = checkAnswers(rules.questions, input.answers ?? {});
  errors.push(...answers.errors.map((e) => ({ field: `${prefix}${e.field}`, code: e.code })));
  const addOns: EntryAddOn[] = [];
  for (const [k, chosen] of (input.addOns ?? []).entries()) {
    const a = rules.addOns.get(chosen.key);
    if (!a) errors.push({ field: `${prefix}addOns.${k}`, code: 'ADDON_NOT_FOUND' });
    else if (!options.ignoreStock && a.capacity != null && a.capacity - a.taken - a.held < chosen.quantity)
      errors.push({ field: `${prefix}addOns.${k}`, code: 'ADDON_SOLD_OUT' });
    else addOns.push({ id: a.id, key: a.key, name: a.name, quantity: chosen.quantity, cents: a.priceCents });
  }
  let code: settingsRepo.CodeRow | null = null;
  if (input.discountCode?.trim()) {
    // The organiser's codes are in the rules when read with them; a deferral credit's code (not
    // among them: one per runner, made at any time) is looked up.
    code =
      rules.codes?.get(input.discountCode.trim().toUpperCase()) ??
      (await settingsRepo.findCode(sql, eventId, input.discountCode));
    const field = `${prefix}discountCode`;
    // A deferral credit's code (credits.ts) is its runner's alone: another e-mail is refused as unknown.
    const owner = code?.ownerEmail && code.ownerEmail !== input.email.trim().toLowerCase();
    if (!code || owner || (code.raceId && code.raceId !== race.raceId))
      errors.push({ field, code: 'CODE_INVALID' });
    else if (
      (code.validFrom && Date.parse(code.validFrom) > now.getTime()) ||
      (code.validUntil && Date.parse(code.validUntil) <= now.getTime())
    )
      errors.push({ field, code: 'CODE_EXPIRED' });
    else if (!options.ignoreStock && code.capacity != null && code.capacity - code.taken - code.held < 1)
      errors.push({ field, code: 'CODE_USED_UP' });
  }
  if (errors.length) return { runner: null, errors };
  const entryCents = entryPrice(race.prices, {
    at: now.toISOString(),
    raceDay: race.raceDate,
    birthDate: input.birthDate ?? null,
    memberCode: input.memberCode ?? null,
  });
  const line = lineTotal({
    entryCents,
    discount: code ? { kind: code.kind, value: code.value } : null,
    addOns: addOns.map((a) => ({ cents: a.cents, quantity: a.quantity })),
  });
  // A deferral credit covers the add-ons too (what the runner paid for was the entry and them).
  if (code?.ownerEmail) {
    line.discountCents = Math.min(code.value, line.entryCents + line.addOnsCents);
    line.totalCents = line.entryCents + line.addOnsCents - line.discountCents;
  }
  const text = (v: string | null | undefined) => v?.trim() ?? '';
  return {
    errors: [],
    runner: {
      race,
      details: {
        firstName: input.firstName.trim(),
        lastName: input.lastName.trim(),
        email: input.email.trim().toLowerCase(),
        birthDate: input.birthDate ?? null,
        gender: input.gender ?? null,
        nationality: text(input.nationality).toUpperCase(),
        club: text(input.club),
        licence: text(input.licence),
        emergencyContact: text(input.emergencyContact),
        phone: text(input.phone),
        guardianName: text(input.guardianName),
        guardianEmail: text(input.guardianEmail),
      },
      answers: answers.kept,
      addOns,
      code,
      memberCode: input.memberCode?.trim() || null,
      entryCents: line.entryCents,
      discountCents: line.discountCents,
      addOnsCents: line.addOnsCents,
      totalCents: line.totalCents,
    },
  };
}
