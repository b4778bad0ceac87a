import type { RegistrationPage, RegistrationSettings, RegistrationSettingsView } from '@tempora/contracts';
import { checkPolicy, checkPrices, priceAt, type RefundPolicy } from '@tempora/domain';
import { errors } from '../../../errors.ts';
import * as settingsRepo from '../settings-repository.ts';
import { issueCredits, reserveCreditPlaces } from './credits.ts';
import { checkKeptPlaces, keptPlaces, leaveKeptPlaces, moveKeptPlaces } from './kept-places.ts';
import { raceOpen } from './runner-check.ts';
import { type EntriesContext, fieldProblem } from './shared.ts';

/** The organiser's registration settings and the public entry page of an event (issue 38). */
export function createSettings(ctx: EntriesContext) {
  const { database, now } = ctx;

  async function view(eventId: string): Promise<RegistrationSettingsView> {
    const terms = await settingsRepo.eventTerms(database, eventId);
    const waiver = await settingsRepo.currentWaiver(database, eventId);
    const kept = await keptPlaces(database, eventId);
    return {
      holdMinutes: terms?.holdMinutes ?? 15,
      waitlistMinutes: terms?.waitlistMinutes ?? 1440,
      payOnSite: terms?.payOnSite ?? false,
      currency: terms?.currency ?? 'EUR',
      policy: {
        transferFeeCents: 0,
        deferFeeCents: 0,
        refund: { kind: 'none' },
        ...(terms?.policy ?? {}),
      } as RegistrationSettingsView['policy'],
      races: (await settingsRepo.raceRegistrations(database, eventId)).map((r) => ({
        raceId: r.raceId,
        opensAt: r.opensAt,
        closesAt: r.closesAt,
        capacity: r.capacity,
        prices: {
          tiers: [...r.prices.tiers],
          agePrices: [...(r.prices.agePrices ?? [])],
          memberPrices: [...(r.prices.memberPrices ?? [])],
        },
        minAge: r.minAge,
        maxAge: r.maxAge,
        required: r.required as RegistrationSettings['races'][number]['required'],
        guardianForMinors: r.guardianForMinors,
        teamSize: r.teamSize,
        taken: r.taken,
        held: r.held,
        kept: kept.get(r.raceId) ?? 0,
      })),
      questions: await settingsRepo.questionsOf(database, eventId),
      addOns: (await settingsRepo.addOnsOf(database, eventId)).map(({ id: _id, ...a }) => a),
      codes: (await settingsRepo.codesOf(database, eventId)).map(({ id: _id, ...c }) => c),
      waiver: waiver?.body ?? '',
      waiverVersion: waiver?.version ?? null,
      nextEventId: terms?.nextEventId ?? null,
      editions: await database.query<{ eventId: string; name: string; startDate: string }>(
        `SELECT o.id AS "eventId", o.name, to_char(o.start_date, 'YYYY-MM-DD') AS "startDate"
           FROM events ev JOIN events o ON o.organisation_id = ev.organisation_id AND o.id <> ev.id
          WHERE ev.id = $1 ORDER BY o.start_date DESC, o.name`,
        [eventId],
      ),
      credits: (
        await database.query<{ deferred: number; issued: number; kept: number }>(
          `SELECT count(*)::int AS deferred, count(code_id)::int AS issued,
                  (SELECT count(*)::int FROM registration_credits k JOIN registration_races g ON g.race_id = k.place_race_id
                    WHERE g.event_id = $1 AND k.place_state = 'reserved') AS kept
             FROM registration_credits WHERE event_id = $1`,
          [eventId],
        )
      )[0] ?? { deferred: 0, issued: 0, kept: 0 },
    };
  }

  async function save(eventId: string, input: RegistrationSettings): Promise<RegistrationSettingsView> {
    const problems: { field: string; code: string }[] = [];
    const races = await database.query<{ id: string }>(
      'SELECT r.id FROM races r JOIN contexts c ON c.db = r.db WHERE c.event_id = $1',
      [eventId],
    );
    const ours = new Set(races.map((r) => r.id));
    const current = new Map(
      (await settingsRepo.raceRegistrations(database, eventId)).map((r) => [r.raceId, r]),
    );
    for (const [n, r] of input.races.entries()) {
      if (!ours.has(r.raceId)) problems.push({ field: `races.${n}.raceId`, code: 'RACE_NOT_FOUND' });
      const known = current.get(r.raceId);
      if (known && r.capacity != null && r.capacity < known.taken + known.held)
        problems.push({ field: `races.${n}.capacity`, code: 'CAPACITY_BELOW_ENTRIES' });
      if (checkPrices(r.prices)) problems.push({ field: `races.${n}.prices`, code: 'PRICES_INVALID' });
      if (r.opensAt && r.closesAt && r.opensAt >= r.closesAt)
        problems.push({ field: `races.${n}.closesAt`, code: 'CLOSES_BEFORE_OPENING' });
    }
    const addOns = new Map((await settingsRepo.addOnsOf(database, eventId)).map((a) => [a.key, a]));
    for (const [n, a] of input.addOns.entries()) {
      const known = addOns.get(a.key);
      if (known && a.capacity != null && a.capacity < known.taken + known.held)
        problems.push({ field: `addOns.${n}.capacity`, code: 'CAPACITY_BELOW_ENTRIES' });
    }
    const codes = new Map(
      (await settingsRepo.codesOf(database, eventId)).map((c) => [c.code.toUpperCase(), c]),
    );
    for (const [n, c] of input.codes.entries()) {
      if (c.raceId && !ours.has(c.raceId))
        problems.push({ field: `codes.${n}.raceId`, code: 'RACE_NOT_FOUND' });
      const known = codes.get(c.code.toUpperCase());
      if (known && c.capacity != null && c.capacity < known.taken + known.held)
        problems.push({ field: `codes.${n}.capacity`, code: 'CAPACITY_BELOW_ENTRIES' });
    }
    if (new Set(input.codes.map((c) => c.code.toUpperCase())).size !== input.codes.length)
      problems.push({ field: 'codes', code: 'CODE_TWICE' });
    if (checkPolicy(input.policy.refund as RefundPolicy))
      problems.push({ field: 'policy.refund', code: 'POLICY_INVALID' });
    // The next edition: another event of the same organisation.
    if (input.nextEventId) {
      const [same] = await database.query(
        'SELECT 1 FROM events ev JOIN events o ON o.organisation_id = ev.organisation_id WHERE ev.id = $1 AND o.id = $2 AND o.id <> ev.id',
        [eventId, input.nextEventId],
      );
      if (!same) problems.push({ field: 'nextEventId', code: 'EVENT_NOT_FOUND' });
    }
    if (problems.length) throw fieldProblem(400, problems);
    const kept = await checkKeptPlaces(database, eventId, input);
    await database.transaction(async (sql) => {
      // Places kept in races left out: released (or taken off the race to be kept in another
      // after the save), so the race can go.
      const moves = await leaveKeptPlaces(sql, kept, input);
      await settingsRepo.saveSettings(sql, eventId, input);
      await moveKeptPlaces(sql, moves);
      // Credits of deferred entries get their code in the next edition named now; credits of the
      // previous edition get their place here once a matching race takes entries.
      await issueCredits(sql, eventId);
      await reserveCreditPlaces(sql, eventId, now());
    });
    return view(eventId);
  }

  /** The public page: open or not and until when, each race's price now and next, places left. */
  async function page(eventId: string): Promise<RegistrationPage> {
    const [event] = await database.query<{ id: string; name: string; timeZone: string; visibility: string }>(
      'SELECT id, name, time_zone AS "timeZone", visibility FROM events WHERE id = $1',
      [eventId],
    );
    const terms = await settingsRepo.eventTerms(database, eventId);
    if (event?.visibility !== 'public' || !terms)
      throw errors.notFound('REGISTRATION_NOT_FOUND', 'This event takes no entries online');
    const at = now();
    const races = await settingsRepo.raceRegistrations(database, eventId);
    const waiver = await settingsRepo.currentWaiver(database, eventId);
    const list = races.map((r) => {
      const price = priceAt(r.prices.tiers, at.toISOString());
      const left = r.capacity == null ? null : Math.max(0, r.capacity - r.taken - r.held);
      return {
        raceId: r.raceId,
        name: r.name,
        raceDate: r.raceDate,
        open: raceOpen(r, at),
        opensAt: r.opensAt,
        closesAt: r.closesAt,
        priceCents: price.cents,
        next: price.next,
        placesLeft: left,
        waitlist: left === 0,
        minAge: r.minAge,
        maxAge: r.maxAge,
        required: r.required as RegistrationPage['races'][number]['required'],
        guardianForMinors: r.guardianForMinors,
        teamSize: r.teamSize,
      };
    });
    const closing = list.filter((r) => r.open && r.closesAt).map((r) => r.closesAt as string);
    return {
      eventId,
      eventName: event.name,
      timeZone: event.timeZone,
      currency: terms.currency,
      open: list.some((r) => r.open),
      closesAt: closing.length ? (closing.sort().at(-1) as string) : null,
      payOnSite: terms.payOnSite,
      holdMinutes: terms.holdMinutes,
      policy: {
        transferFeeCents: 0,
        deferFeeCents: 0,
        refund: { kind: 'none' },
        ...terms.policy,
      } as RegistrationPage['policy'],
      races: list,
      questions: await settingsRepo.questionsOf(database, eventId),
      // Sold out is no longer offered.
      addOns: (await settingsRepo.addOnsOf(database, eventId))
        .map((a) => ({
          key: a.key,
          name: a.name,
          priceCents: a.priceCents,
          left: a.capacity == null ? null : Math.max(0, a.capacity - a.taken - a.held),
        }))
        .filter((a) => a.left !== 0),
      waiver,
    };
  }

  return { view, save, page };
}
