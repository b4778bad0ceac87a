import crypto from 'node:crypto';
import type {
  DepositCreate,
  DepositDetail,
  DepositEntry,
  DepositOffer,
  DepositPatch,
  EntryInput,
  JoinPreview,
  MessageInput,
  TeamRanking,
} from '@tempora/contracts';
import { interpolate, sharedLocales } from '@tempora/contracts/locales';
import {
  canMoveDeposit,
  type DepositState,
  draftOrders,
  formatStructured,
  orderExpiresAt,
  type PayerMode,
  placesLeft,
} from '@tempora/domain';
import type { Database, Sql } from '../../db/database.ts';
import { errors } from '../../errors.ts';
import type { Outbox } from '../../identity/outbox.ts';
import * as payRepo from '../payments/port.ts';
import type { Results } from '../results/port.ts';
import type { DepositRole } from './access.ts';
import { expireOrders, settleDeposit } from './confirm.ts';
import { assessEntry } from './entry-rules.ts';
import * as repo from './repository.ts';

export interface DepositsDeps {
  database: Database;
  outbox: Outbox;
  results: Results;
  publicUrl: string | undefined;
  now?: () => Date;
}

/** Who is acting, as the service needs it. */
export interface Actor {
  sub: string;
  role: DepositRole;
}

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** A join code: 8 characters without look-alikes (0/O, 1/I), 40 bits. */
function joinCode(): string {
  return [...crypto.randomBytes(8)].map((b) => ALPHABET[b % ALPHABET.length]).join('');
}

/**
 * Group deposits (issue 18): a captain's entry file for an event, its members and entries, the
 * submission that freezes prices into orders, messages, and what follows payment.
 */
export function createDepositsService(deps: DepositsDeps) {
  const { database, outbox, results } = deps;
  const now = deps.now ?? (() => new Date());
  const link = (path: string) => `${(deps.publicUrl ?? '').replace(/\/+$/, '')}/#${path}`;

  async function settingsOf(sql: Sql, eventId: string) {
    return repo.findSettings(sql, eventId);
  }

  /** The entry deadline: the organiser's, else the start of the event's first day (UTC). */
  function deadlineOf(settings: repo.SettingsRow | null, deposit: { eventStart: string }): Date {
    return new Date(settings?.entryDeadline ?? `${deposit.eventStart}T00:00:00Z`);
  }

  function requireBeforeDeadline(deadline: Date, role: DepositRole) {
    if (role !== 'staff' && now() >= deadline) {
      throw errors.conflict('DEADLINE_PASSED', `Entries locked since ${deadline.toISOString()}`);
    }
  }

  function requireState(deposit: repo.DepositRow, states: readonly string[]) {
    if (!states.includes(deposit.state)) {
      throw errors.conflict('DEPOSIT_STATE', `Not possible while the deposit is ${deposit.state}`);
    }
  }

  async function offer(eventId: string): Promise<DepositOffer> {
    const [event] = await database.query<{ name: string; start: string }>(
      `SELECT name, to_char(start_date, 'YYYY-MM-DD') AS start FROM events WHERE id = $1`,
      [eventId],
    );
    if (!event) throw errors.notFound('EVENT_NOT_FOUND', `No event '${eventId}'`);
    const settings = await settingsOf(database, eventId);
    const deadline = deadlineOf(settings, { eventStart: event.start });
    const taken = await repo.placesTaken(database, eventId);
    const races = (await repo.racesOfEvent(database, eventId)).map((r) => {
      const left = placesLeft(settings?.capacities[r.id], taken.get(r.id) ?? 0, 0);
      return {
        id: r.id,
        name: r.name,
        date: r.date,
        priceCents: settings?.fees[r.id] ?? 0,
        placesLeft: Number.isFinite(left) ? left : null,
      };
    });
    return {
      eventId,
      eventName: event.name,
      open: Boolean(settings?.open) && now() < deadline,
      deadline: deadline.toISOString(),
      currency: settings?.currency ?? 'EUR',
      races,
    };
  }

  /**
   * What someone holding a join code sees before joining (issue 25): the event, the team's name,
   * the deadline and whether it still takes members. Not the captain, nor the deposit's id.
   */
  async function joinPreview(deposit: repo.DepositRow): Promise<JoinPreview> {
    const settings = await settingsOf(database, deposit.eventId);
    const deadline = deadlineOf(settings, deposit);
    return {
      eventId: deposit.eventId,
      eventName: deposit.eventName,
      teamName: deposit.organisationName,
      deadline: deadline.toISOString(),
      open: deposit.state === 'collecting' && now() < deadline,
    };
  }

  async function detail(id: string, actor: Actor): Promise<DepositDetail> {
    await expireOrders(database, now());
    const deposit = (await repo.findDeposit(database, id)) as repo.DepositRow;
    const settings = await settingsOf(database, deposit.eventId);
    const deadline = deadlineOf(settings, deposit);
    const races = new Map((await repo.racesOfEvent(database, deposit.eventId)).map((r) => [r.id, r]));
    const entries = await repo.entriesOf(database, id);
    const orders = await payRepo.ordersWhere(database, 'o.deposit_id = $1::bigint', [id]);
    const lines = await payRepo.linesOf(
      database,
      orders.map((o) => o.id),
    );
    const orderOfEntry = new Map<string, { orderId: string; amountCents: number; paid: boolean }>();
    for (const l of lines) {
      const order = orders.find((o) => o.id === l.orderId);
      if (!order || order.state === 'expired' || order.state === 'cancelled') continue;
      orderOfEntry.set(l.entryId, {
        orderId: l.orderId,
        amountCents: l.amountCents,
        paid: order.state === 'paid',
      });
    }
    const view: DepositEntry[] = entries.map((e) => {
      const a = assessEntry(e, races.get(e.raceId ?? ''));
      const o = orderOfEntry.get(e.id);
      return {
        id: e.id,
        state: e.state as DepositEntry['state'],
        memberSub: e.memberSub,
        mine: e.memberSub === actor.sub,
        raceId: e.raceId,
        raceName: races.get(e.raceId ?? '')?.name ?? null,
        firstName: e.firstName,
        lastName: e.lastName,
        gender: e.gender,
        birthDate: e.birthDate,
        email: actor.role === 'member' && e.memberSub !== actor.sub ? '' : e.email,
        nationality: e.nationality,
        category: e.category,
        bib: e.bib,
        missing: e.state === 'cancelled' ? [] : a.missing,
        substitution: (e.substitution as EntryInput | null) ?? null,
        orderId: o?.orderId ?? null,
        paid: o?.paid ?? false,
        priceCents: o?.amountCents ?? (e.raceId ? (settings?.fees[e.raceId] ?? 0) : null),
      };
    });
    const live = view.filter((e) => e.state !== 'cancelled');
    const seesAll = actor.role !== 'member';
    return {
      id,
      eventId: deposit.eventId,
      eventName: deposit.eventName,
      organisationName: deposit.organisationName,
      vat: deposit.vat,
      type: deposit.type as DepositDetail['type'],
      payerMode: deposit.payerMode as DepositDetail['payerMode'],
      companyCap: deposit.companyCap,
      companyUntil: deposit.companyUntil,
      minTeamSize: deposit.minTeamSize,
      state: deposit.state as DepositDetail['state'],
      captainSub: deposit.captainSub,
      captainName: deposit.captainName || deposit.captainEmail,
      role: actor.role,
      joinCode: seesAll ? deposit.joinCode : null,
      editable: deposit.state === 'collecting' && (actor.role === 'staff' || now() < deadline),
      deadline: deadline.toISOString(),
      currency: settings?.currency ?? 'EUR',
      iban: settings?.iban ?? '',
      beneficiary: settings?.beneficiary ?? '',
      members: seesAll ? await repo.membersOf(database, id) : [],
      entries: view,
      orders: orders.map((o) => ({
        id: o.id,
        // A deposit's orders always have a payer (only a document's order has none).
        payerSub: o.payerSub ?? '',
        payerName: o.payerName || o.payerEmail,
        company: o.company,
        state: o.state,
        amountCents: o.amountCents,
        paidCents: o.paidCents,
        refundedCents: o.refundedCents,
        currency: o.currency,
        structured: formatStructured(o.structured),
        expiresAt: o.expiresAt,
        mine: o.payerSub === actor.sub,
      })),
      totals: {
        entries: live.length,
        placeholders: live.filter((e) => e.state === 'placeholder').length,
        missing: live.filter((e) => e.missing.length > 0).length,
        amountCents: live.reduce((s, e) => s + (e.priceCents ?? 0), 0),
        paidCents: orders.filter((o) => o.state === 'paid').reduce((s, o) => s + o.paidCents, 0),
      },
      createdAt: deposit.createdAt,
      submittedAt: deposit.submittedAt,
    };
  }

  async function create(sub: string, input: DepositCreate & { payerMode: string; minTeamSize: number }) {
    const available = await offer(input.eventId);
    if (!available.open) throw errors.conflict('DEPOSITS_CLOSED', 'This event takes no group entries (now)');
    for (let attempt = 0; ; attempt++) {
      try {
        return await repo.insertDeposit(database, {
          eventId: input.eventId,
          organisationName: input.organisationName,
          vat: input.vat || null,
          type: input.type,
          captainSub: sub,
          joinCode: joinCode(),
          payerMode: input.payerMode,
          companyCap: input.companyCap ?? null,
          companyUntil: input.companyUntil ?? null,
          minTeamSize: input.minTeamSize,
        });
      } catch (error) {
        // A join code or id collision (40 and 52 bits: rare) draws again.
        if (attempt >= 3 || !/join_code|deposits_pkey/.test(String((error as Error).message))) throw error;
      }
    }
  }

  async function patch(deposit: repo.DepositRow, input: DepositPatch) {
    requireState(deposit, ['collecting']);
    await repo.updateDeposit(database, deposit.id, { ...input, vat: input.vat === '' ? null : input.vat });
  }

  /** Validates an entry's fields against the event's races and the other entries. */
  async function checkedEntry(deposit: repo.DepositRow, fields: repo.EntryFields & { id?: string }) {
    const races = new Map((await repo.racesOfEvent(database, deposit.eventId)).map((r) => [r.id, r]));
    const a = assessEntry(fields, races.get(fields.raceId ?? ''));
    if (a.error) {
      const status = a.error.code === 'RACE_NOT_FOUND' ? 'badRequest' : 'badRequest';
      throw errors[status](a.error.code, a.error.message, [
        { field: a.error.field, message: a.error.message },
      ]);
    }
    if (fields.raceId && fields.firstName && fields.lastName && fields.birthDate) {
      const duplicate = await repo.findDuplicate(database, deposit.eventId, {
        ...(fields.id ? { id: fields.id } : {}),
        raceId: fields.raceId,
        firstName: fields.firstName,
        lastName: fields.lastName,
        birthDate: fields.birthDate,
      });
      if (duplicate) {
        throw errors.conflict('ENTRY_DUPLICATE', 'Already entered in this race (same name and birth date)');
      }
    }
    return { ...fields, category: a.category, state: a.state };
  }

  function fieldsOf(input: EntryInput, base?: repo.EntryRow): repo.EntryFields {
    const pick = <K extends keyof repo.EntryFields>(k: K, v: repo.EntryFields[K] | undefined) =>
      v !== undefined ? v : (base?.[k] ?? null);
    return {
      raceId: pick('raceId', input.raceId) as string | null,
      firstName: input.placeholder ? '' : ((pick('firstName', input.firstName) as string | null) ?? ''),
      lastName: input.placeholder ? '' : ((pick('lastName', input.lastName) as string | null) ?? ''),
      gender: pick('gender', input.gender) as repo.EntryFields['gender'],
      birthDate: pick('birthDate', input.birthDate) as string | null,
      email: (pick('email', input.email) as string | null) ?? '',
      nationality: ((pick('nationality', input.nationality) as string | null) ?? '').toUpperCase(),
      category: null,
      state: 'submitted',
    };
  }

  async function addEntries(deposit: repo.DepositRow, actor: Actor, inputs: EntryInput[]) {
    const settings = await settingsOf(database, deposit.eventId);
    requireBeforeDeadline(deadlineOf(settings, deposit), actor.role);
    requireState(deposit, ['collecting']);
    if (actor.role === 'member') {
      const existing = await repo.entriesOf(database, deposit.id);
      if (inputs.length !== 1 || existing.some((e) => e.memberSub === actor.sub && e.state !== 'cancelled')) {
        throw errors.conflict('ENTRY_EXISTS', 'A member fills in one entry: their own');
      }
    }
    const rows: (repo.EntryFields & { memberSub: string | null })[] = [];
    for (const input of inputs) {
      const checked = await checkedEntry(deposit, fieldsOf(input));
      const self = actor.role === 'member' || input.self === true;
      rows.push({ ...checked, memberSub: self ? actor.sub : null });
    }
    const seen = new Set<string>();
    for (const r of rows) {
      if (!r.firstName) continue;
      const key = `${r.raceId}|${r.firstName.toLowerCase()}|${r.lastName.toLowerCase()}|${r.birthDate}`;
      if (seen.has(key))
        throw errors.conflict('ENTRY_DUPLICATE', `Twice in the list: ${r.firstName} ${r.lastName}`);
      seen.add(key);
    }
    await repo.insertEntries(database, deposit.id, rows);
  }

  async function updateEntry(deposit: repo.DepositRow, actor: Actor, entryId: string, input: EntryInput) {
    const entry = (await repo.entriesOf(database, deposit.id)).find((e) => e.id === entryId);
    if (!entry || entry.state === 'cancelled')
      throw errors.notFound('ENTRY_NOT_FOUND', `No entry '${entryId}'`);
    if (actor.role === 'member' && entry.memberSub !== actor.sub) {
      throw errors.forbidden('A member changes only their own entry');
    }
    const settings = await settingsOf(database, deposit.eventId);
    requireBeforeDeadline(deadlineOf(settings, deposit), actor.role);
    const fields = fieldsOf(input, entry);
    if (entry.state === 'confirmed') {
      // After payment a confirmed entry changes only with the organiser's approval (issue 18).
      if (fields.raceId !== entry.raceId)
        throw errors.conflict('RACE_CHANGE', 'The race of a paid entry stays');
      const checked = await checkedEntry(deposit, { ...fields, id: entry.id });
      if (checked.state !== 'valid')
        throw errors.badRequest('ENTRY_INCOMPLETE', 'A substitute needs every field');
      if (actor.role === 'staff') return applySubstitution(deposit, entry, checked);
      await repo.setSubstitution(database, entry.id, { ...input, raceId: entry.raceId });
      await notifyOrganiser(
        deposit,
        sharedLocales.en.mails.depositNotice.substitutionAsked,
        `${entry.firstName} ${entry.lastName} → ${fields.firstName} ${fields.lastName}`,
      );
      return;
    }
    if (deposit.state !== 'collecting' && !['paid', 'awaiting_payment'].includes(deposit.state)) {
      throw errors.conflict('DEPOSIT_STATE', `Not possible while the deposit is ${deposit.state}`);
    }
    if (deposit.state !== 'collecting' && entry.raceId !== fields.raceId) {
      throw errors.conflict('RACE_CHANGE', 'The race of a submitted entry stays');
    }
    const checked = await checkedEntry(deposit, { ...fields, id: entry.id });
    // Once submitted, a placeholder is filled completely or not at all.
    if (deposit.state !== 'collecting' && checked.state !== 'valid') {
      throw errors.badRequest('ENTRY_INCOMPLETE', 'Fill in every field of a paid place');
    }
    const memberSub = entry.memberSub ?? (input.self ? actor.sub : null);
    const contexts = await database.transaction(async (sql) => {
      await repo.updateEntry(sql, entry.id, checked);
      if (memberSub !== entry.memberSub) {
        await sql.query('UPDATE deposit_entries SET member_sub = $2 WHERE id = $1::bigint', [
          entry.id,
          memberSub,
        ]);
      }
      return deposit.state !== 'collecting' ? settleDeposit(sql, deposit.id) : [];
    });
    // After the commit: a reader rebuilding the state meanwhile would otherwise keep the old one.
    for (const db of contexts) await results.reload(db);
  }

  async function applySubstitution(deposit: repo.DepositRow, entry: repo.EntryRow, fields: repo.EntryFields) {
    const [race] = await database.query<{ db: string }>('SELECT db FROM races WHERE id = $1', [entry.raceId]);
    await database.transaction(async (sql) => {
      await repo.updateEntry(sql, entry.id, { ...fields, state: 'confirmed' });
      await repo.setSubstitution(sql, entry.id, null);
      await sql.query(
        `UPDATE participants SET first_name = $3, last_name = $4, gender = $5, birth_date = $6::date, nationality = $7,
           category = NULL WHERE race_id = $1 AND bib = $2`,
        [
          entry.raceId,
          entry.bib,
          fields.firstName,
          fields.lastName,
          fields.gender,
          fields.birthDate,
          fields.nationality,
        ],
      );
      await sql.query('UPDATE races SET epoch = epoch + 1 WHERE id = $1', [entry.raceId]);
    });
    if (race) await results.reload(race.db);
    void deposit;
  }

  async function decideSubstitution(deposit: repo.DepositRow, entryId: string, approve: boolean) {
    const entry = (await repo.entriesOf(database, deposit.id)).find((e) => e.id === entryId);
    if (!entry?.substitution)
      throw errors.notFound('SUBSTITUTION_NOT_FOUND', 'No substitution waits on this entry');
    if (!approve) return repo.setSubstitution(database, entry.id, null);
    const fields = await checkedEntry(deposit, {
      ...fieldsOf(entry.substitution as EntryInput, entry),
      id: entry.id,
    });
    return applySubstitution(deposit, entry, fields);
  }

  async function removeEntry(deposit: repo.DepositRow, actor: Actor, entryId: string) {
    const entry = (await repo.entriesOf(database, deposit.id)).find((e) => e.id === entryId);
    if (!entry || entry.state === 'cancelled')
      throw errors.notFound('ENTRY_NOT_FOUND', `No entry '${entryId}'`);
    if (actor.role === 'member' && entry.memberSub !== actor.sub) throw errors.forbidden('Not your entry');
    requireState(deposit, ['collecting']);
    await repo.setEntryState(database, [entry.id], 'cancelled');
  }

  async function submit(deposit: repo.DepositRow) {
    requireState(deposit, ['collecting']);
    if (!canMoveDeposit(deposit.state as DepositState, 'submitted'))
      throw errors.conflict('DEPOSIT_STATE', deposit.state);
    const settings = await settingsOf(database, deposit.eventId);
    const deadline = deadlineOf(settings, deposit);
    requireBeforeDeadline(deadline, 'captain');
    if (!settings?.open) throw errors.conflict('DEPOSITS_CLOSED', 'This event takes no group entries (now)');
    const entries = (await repo.entriesOf(database, deposit.id)).filter((e) => e.state !== 'cancelled');
    const paidLines = await database.query<{ entryId: string }>(
      `SELECT l.entry_id::text AS "entryId" FROM order_lines l JOIN orders o ON o.id = l.order_id
        WHERE o.deposit_id = $1::bigint AND o.state = 'paid'`,
      [deposit.id],
    );
    const alreadyPaid = new Set(paidLines.map((l) => l.entryId));
    const toPay = entries.filter((e) => !alreadyPaid.has(e.id));
    if (!toPay.length) throw errors.conflict('DEPOSIT_EMPTY', 'No entry to submit');
    const incomplete = toPay.filter((e) => !e.raceId || e.state === 'submitted');
    if (incomplete.length) {
      throw errors.badRequest(
        'ENTRIES_INCOMPLETE',
        'Every entry needs a race, and a name only with all its fields (or none: a placeholder)',
        incomplete.map((e) => ({
          field: `entries.${e.id}`,
          message: e.raceId ? 'missing fields' : 'no race',
        })),
      );
    }
    const taken = await repo.placesTaken(database, deposit.eventId);
    const wanted = new Map<string, number>();
    for (const e of toPay) wanted.set(e.raceId as string, (wanted.get(e.raceId as string) ?? 0) + 1);
    for (const [raceId, n] of wanted) {
      if (placesLeft(settings.capacities[raceId], taken.get(raceId) ?? 0, 0) < n) {
        throw errors.conflict('RACE_FULL', `Not enough places left in '${raceId}'`);
      }
    }
    const mode: PayerMode =
      deposit.payerMode === 'company'
        ? { kind: 'company', capMembers: deposit.companyCap, until: deposit.companyUntil }
        : { kind: deposit.payerMode as 'captain' | 'member' };
    const drafts = draftOrders(
      mode,
      deposit.captainSub,
      toPay.map((e) => ({
        id: e.id,
        raceId: e.raceId as string,
        memberSub: e.memberSub,
        createdAt: e.createdAt,
      })),
      (raceId) => settings.fees[raceId] ?? 0,
    );
    const created: { id: string; payerSub: string; amountCents: number; structured: string }[] = [];
    const contexts = await database.transaction(async (sql) => {
      for (const draft of drafts) {
        const id = await payRepo.nextOrderId(sql);
        const structured = await payRepo.freeStructured(sql);
        await payRepo.insertOrder(sql, {
          id,
          depositId: deposit.id,
          eventId: deposit.eventId,
          payerSub: draft.payerSub,
          company: draft.company,
          state: draft.amountCents === 0 ? 'paid' : 'awaiting_payment',
          amountCents: draft.amountCents,
          currency: settings.currency,
          structured,
          expiresAt: orderExpiresAt(now(), settings.orderExpiryDays, deadline),
          lines: draft.lines.map((l) => ({ ...l })),
        });
        created.push({ id, payerSub: draft.payerSub, amountCents: draft.amountCents, structured });
      }
      await repo.updateDeposit(sql, deposit.id, { state: 'awaiting_payment', submitted: true });
      return settleDeposit(sql, deposit.id);
    });
    for (const db of contexts) await results.reload(db);
    await mailOrders(deposit, settings, created);
  }

  async function mailOrders(
    deposit: repo.DepositRow,
    settings: repo.SettingsRow,
    created: { id: string; payerSub: string; amountCents: number; structured: string }[],
  ) {
    for (const order of created.filter((o) => o.amountCents > 0)) {
      const [payer] = await database.query<{ email: string }>('SELECT email FROM users WHERE sub = $1', [
        order.payerSub,
      ]);
      if (!payer) continue;
      const amount = `${(order.amountCents / 100).toFixed(2)} ${settings.currency}`;
      const communication = formatStructured(order.structured);
      const text = [
        `${deposit.eventName} — ${deposit.organisationName}`,
        interpolate(sharedLocales.en.mails.depositOrder.order, { id: order.id, amount }),
        interpolate(sharedLocales.en.mails.depositOrder.transfer, {
          beneficiary: settings.beneficiary,
          iban: settings.iban,
          communication,
        }),
        link(`/deposit/${deposit.eventId}/${deposit.id}/paymentok`),
      ].join('\n');
      await outbox.send({
        to: payer.email,
        subject: interpolate(sharedLocales.en.mails.depositOrder.subject, {
          event: deposit.eventName,
          amount,
          communication,
        }),
        text,
        html: htmlOf(text),
      });
    }
  }

  async function notifyOrganiser(deposit: repo.DepositRow, subject: string, body: string) {
    for (const to of await repo.organiserEmails(database, deposit.organisationId)) {
      const text = `${deposit.eventName} — ${deposit.organisationName}\n${body}\n${link(`/deposit/${deposit.eventId}/${deposit.id}/overview`)}`;
      await outbox.send({ to, subject: `${deposit.eventName}: ${subject}`, text, html: htmlOf(text) });
    }
  }

  async function move(
    deposit: repo.DepositRow,
    role: DepositRole,
    to: 'cancelled' | 'collecting' | 'closed',
  ) {
    if (!canMoveDeposit(deposit.state as DepositState, to)) {
      throw errors.conflict('DEPOSIT_STATE', `A ${deposit.state} deposit cannot become ${to}`);
    }
    if (to === 'cancelled' && role === 'captain' && ['paid', 'confirmed'].includes(deposit.state)) {
      throw errors.forbidden('After payment only the organiser cancels (and refunds)');
    }
    if (to === 'closed' && role !== 'staff') throw errors.forbidden('The organiser closes a deposit');
    await database.transaction(async (sql) => {
      await repo.updateDeposit(sql, deposit.id, { state: to });
      if (to === 'cancelled') {
        await sql.query(
          `UPDATE orders SET state = 'cancelled' WHERE deposit_id = $1::bigint AND state = 'awaiting_payment'`,
          [deposit.id],
        );
        await sql.query(
          `UPDATE deposit_entries SET state = 'cancelled', updated_at = now() WHERE deposit_id = $1::bigint AND state <> 'confirmed'`,
          [deposit.id],
        );
      }
    });
  }

  async function recipientsOf(
    deposit: repo.DepositRow,
    audience: MessageInput['audience'],
  ): Promise<string[]> {
    if (audience === 'organiser') return repo.organiserEmails(database, deposit.organisationId);
    const members = await repo.membersOf(database, deposit.id);
    const entries = (await repo.entriesOf(database, deposit.id)).filter((e) => e.state !== 'cancelled');
    const emailOfSub = new Map(members.map((m) => [m.sub, m.email]));
    const emailsOf = (list: repo.EntryRow[]) =>
      list
        .flatMap((e) => [e.memberSub ? emailOfSub.get(e.memberSub) : undefined, e.email])
        .filter((x): x is string => Boolean(x));
    let out: string[];
    if (audience === 'all') out = [...members.map((m) => m.email), ...emailsOf(entries)];
    else if (audience === 'missing') {
      const races = new Map((await repo.racesOfEvent(database, deposit.eventId)).map((r) => [r.id, r]));
      out = emailsOf(entries.filter((e) => assessEntry(e, races.get(e.raceId ?? '')).missing.length > 0));
    } else {
      const unpaid = await payRepo.ordersWhere(
        database,
        `o.deposit_id = $1::bigint AND o.state = 'awaiting_payment'`,
        [deposit.id],
      );
      const lines = await payRepo.linesOf(
        database,
        unpaid.map((o) => o.id),
      );
      const unpaidEntries = new Set(lines.map((l) => l.entryId));
      out = [...unpaid.map((o) => o.payerEmail), ...emailsOf(entries.filter((e) => unpaidEntries.has(e.id)))];
    }
    return [...new Set(out.map((e) => e.toLowerCase()))];
  }

  async function postMessage(deposit: repo.DepositRow, sub: string, input: MessageInput) {
    const recipients = await recipientsOf(deposit, input.audience);
    const saved = await repo.insertMessage(database, {
      depositId: deposit.id,
      authorSub: sub,
      ...input,
      recipients,
    });
    const text = `${input.body}\n\n— ${deposit.captainName || deposit.captainEmail}, ${deposit.organisationName} (${deposit.eventName})\n${link(`/deposit/${deposit.eventId}/${deposit.id}/collect`)}`;
    for (const to of recipients) {
      await outbox.send({ to, subject: `${deposit.eventName}: ${input.subject}`, text, html: htmlOf(text) });
    }
    return { ...saved, recipients: recipients.length };
  }

  async function ranking(deposit: repo.DepositRow): Promise<TeamRanking> {
    const rows = await database.query<{ bib: string; name: string; raceName: string; db: string }>(
      `SELECT e.bib, trim(e.first_name || ' ' || e.last_name) AS name, r.name AS "raceName", r.db
         FROM deposit_entries e JOIN races r ON r.id = e.race_id
        WHERE e.deposit_id = $1::bigint AND e.state = 'confirmed' AND e.bib IS NOT NULL ORDER BY e.id`,
      [deposit.id],
    );
    const members = await Promise.all(
      rows.map(async (r) => {
        try {
          const card = await results.athleteByBib(r.db, r.bib);
          const finish = card.splits[card.splits.length - 1];
          return {
            bib: r.bib,
            name: r.name,
            raceName: r.raceName,
            timeMs: finish?.netMs ?? null,
            rank: finish?.rankOverall ?? null,
          };
        } catch {
          return { bib: r.bib, name: r.name, raceName: r.raceName, timeMs: null, rank: null };
        }
      }),
    );
    const times = members
      .map((m) => m.timeMs)
      .filter((t): t is number => t !== null)
      .sort((a, b) => a - b);
    members.sort((a, b) => (a.timeMs ?? Number.POSITIVE_INFINITY) - (b.timeMs ?? Number.POSITIVE_INFINITY));
    return {
      started: times.length > 0,
      minTeamSize: deposit.minTeamSize,
      members,
      teamTimeMs:
        times.length >= deposit.minTeamSize
          ? times.slice(0, deposit.minTeamSize).reduce((s, t) => s + t, 0)
          : null,
    };
  }

  return {
    offer,
    joinPreview,
    detail,
    create,
    patch,
    addEntries,
    updateEntry,
    decideSubstitution,
    removeEntry,
    submit,
    move,
    postMessage,
    ranking,
    link,
    expire: () => expireOrders(database, now()),
  };
}

export type DepositsService = ReturnType<typeof createDepositsService>;

/** The plain text of a mail as minimal HTML (escaped, line breaks kept). */
export function htmlOf(text: string): string {
  const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `<p>${escaped.replace(/\n/g, '<br>')}</p>`;
}
