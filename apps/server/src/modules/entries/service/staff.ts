import type { ManualEntryInput, StaffEntries, StaffEntry } from '@tempora/contracts';
import { manualEntryInputSchema } from '@tempora/contracts';
import { errors } from '../../../errors.ts';
import { iso } from '../../../lib/iso-time.ts';
import type { TextTable } from '../../exports/port.ts';
import { freeStructured, insertOrder, nextOrderId, type OrderRow, ordersWhere } from '../../payments/port.ts';
import { confirmUnits, eachUnit, holdEntry } from '../counters.ts';
import * as repo from '../repository.ts';
import * as settingsRepo from '../settings-repository.ts';
import type { createMails } from './mails.ts';
import { checkRunner, entryRules } from './runner-check.ts';
import { confirmEntry, contextsOf } from './settle.ts';
import { auditEntry, type EntriesContext, fieldProblem } from './shared.ts';
import { advanceWaitlist } from './waitlist.ts';

/**
 * The organiser's side of entries (issue 38): the list with filters and answers, per-day counts,
 * revenue and places per race, an entry's history, the CSV/XLSX table, manual entries (comped or
 * paid on site), places released to the waitlist, an entry code resolved (pickup, issue 39).
 */
export function createStaff(ctx: EntriesContext, mails: ReturnType<typeof createMails>) {
  const { database, now, payments } = ctx;

  async function rows(
    eventId: string,
    filter: { race?: string | undefined; state?: string | undefined; q?: string | undefined },
  ) {
    const list = await database.query<
      Omit<StaffEntry, 'invoice'> & {
        invoiceNumber: number | null;
        participantFirst: string | null;
        participantLast: string | null;
        details: repo.EntryDetails;
        waiverAcceptedAt: string | null;
        createdAt: string;
      }
    >(
      `SELECT e.code, e.race_id AS "raceId", coalesce(r.name, e.race_id) AS "raceName", e.state, e.source,
              e.details, p.first_name AS "participantFirst", p.last_name AS "participantLast", e.email, p.bib,
              p.id::text AS "participantId", e.order_id::text AS "orderId", o.state AS "orderState",
              (SELECT i.number FROM invoices i WHERE i.order_id = e.order_id) AS "invoiceNumber",
              e.entry_cents - e.discount_cents + e.addons_cents AS "totalCents", c.code AS "discountCode",
              e.addons AS "addOns", e.answers, e.waiver_version AS "waiverVersion",
              e.waiver_accepted_at AS "waiverAcceptedAt", e.created_at AS "createdAt"
         FROM registration_entries e LEFT JOIN races r ON r.id = e.race_id LEFT JOIN participants p ON p.id = e.participant_id
         LEFT JOIN orders o ON o.id = e.order_id LEFT JOIN registration_codes c ON c.id = e.code_id
        WHERE e.event_id = $1 AND ($2::text IS NULL OR e.race_id = $2) AND ($3::text IS NULL OR e.state = $3)
          AND ($4::text IS NULL OR (e.details->>'firstName') || ' ' || (e.details->>'lastName') || ' ' || e.email ILIKE '%' || $4 || '%')
        ORDER BY e.id`,
      [eventId, filter.race ?? null, filter.state ?? null, filter.q?.trim() || null],
    );
    return list.map(
      ({ participantFirst, participantLast, details, invoiceNumber, ...e }): StaffEntry => ({
        ...e,
        // As printed on the PDF (payments' `invoiceLabel`).
        invoice: invoiceNumber == null ? null : String(invoiceNumber).padStart(6, '0'),
        firstName: participantFirst ?? details.firstName,
        lastName: participantLast ?? details.lastName,
        gender: details.gender,
        birthDate: details.birthDate,
        addOns: (e.addOns as repo.EntryAddOn[]).map((a) => ({
          key: a.key,
          name: a.name,
          quantity: a.quantity,
          cents: a.cents,
        })),
        waiverAcceptedAt: iso(e.waiverAcceptedAt),
        createdAt: iso(e.createdAt) as string,
      }),
    );
  }

  async function list(
    eventId: string,
    filter: { race?: string | undefined; state?: string | undefined; q?: string | undefined },
  ): Promise<StaffEntries> {
    const perDay = await database.query<{ day: string; count: number }>(
      `SELECT to_char(e.created_at AT TIME ZONE ev.time_zone, 'YYYY-MM-DD') AS day, count(*)::int AS count
         FROM registration_entries e JOIN events ev ON ev.id = e.event_id
        WHERE e.event_id = $1 AND e.state = 'confirmed' GROUP BY 1 ORDER BY 1`,
      [eventId],
    );
    const races = await database.query<StaffEntries['races'][number]>(
      `SELECT g.race_id AS "raceId", r.name, g.capacity, g.taken, g.held,
              coalesce((SELECT sum(e.entry_cents - e.discount_cents + e.addons_cents) FROM registration_entries e
                         WHERE e.race_id = g.race_id AND e.state = 'confirmed'), 0)::int AS "revenueCents",
              (SELECT count(*) FROM registration_waitlist w WHERE w.race_id = g.race_id AND w.state = 'waiting')::int AS waiting
         FROM registration_races g JOIN races r ON r.id = g.race_id WHERE g.event_id = $1 ORDER BY r.race_date, r.name`,
      [eventId],
    );
    return {
      entries: await rows(eventId, filter),
      questions: await settingsRepo.questionsOf(database, eventId),
      perDay,
      races,
    };
  }

  /** The list as a table for the one CSV/XLSX writer: answers as columns, headers in the reader's language. */
  async function table(eventId: string, lng: 'en' | 'fr'): Promise<TextTable> {
    const { entries, questions } = await list(eventId, {});
    const h =
      lng === 'fr'
        ? [
            'Code',
            'Course',
            'Statut',
            'Prénom',
            'Nom',
            'E-mail',
            'Sexe',
            'Naissance',
            'Dossard',
            'Montant',
            'Facture',
            'Code promo',
            'Options',
            'Décharge',
            'Inscrit le',
          ]
        : [
            'Code',
            'Race',
            'Status',
            'First name',
            'Last name',
            'E-mail',
            'Gender',
            'Birth date',
            'Bib',
            'Amount',
            'Invoice',
            'Discount code',
            'Add-ons',
            'Waiver',
            'Entered',
          ];
    const headers = [...h, ...questions.map((q) => q.label)];
    const money = (c: number) =>
      lng === 'fr' ? (c / 100).toFixed(2).replace('.', ',') : (c / 100).toFixed(2);
    return {
      title: 'entries',
      headers,
      aligns: headers.map(() => 'left' as const),
      bold: headers.map(() => false),
      rows: entries.map((e) => [
        e.code,
        e.raceName,
        e.state,
        e.firstName,
        e.lastName,
        e.email,
        e.gender ?? '',
        e.birthDate ?? '',
        e.bib ?? '',
        money(e.totalCents),
        e.invoice ?? '',
        e.discountCode ?? '',
        e.addOns.map((a) => `${a.name} ×${a.quantity}`).join(', '),
        e.waiverVersion ? `v${e.waiverVersion} ${e.waiverAcceptedAt ?? ''}` : '',
        e.createdAt,
        ...questions.map((q) => {
          const v = e.answers[q.key];
          return Array.isArray(v) ? v.join(', ') : v == null ? '' : String(v);
        }),
      ]),
    };
  }

  async function history(code: string) {
    const rows = await database.query<{
      action: string;
      actor: string;
      at: string;
      detail: Record<string, unknown>;
    }>(
      `SELECT a.action, coalesce(nullif(a.actor_email, ''), 'automatic') AS actor, a.at, a.detail
         FROM audit_trail a WHERE a.subject = 'entry' AND a.subject_id = $1 ORDER BY a.id`,
      [code],
    );
    return rows.map((r) => ({ ...r, at: iso(r.at) as string }));
  }

  async function entry(eventId: string, code: string): Promise<StaffEntry> {
    const found = (await rows(eventId, {})).find((e) => e.code === code);
    if (!found) throw errors.notFound('ENTRY_NOT_FOUND', `No entry '${code}'`);
    return found;
  }

  /** A manual entry: comped (no order) or paid on site (an order paid in cash, audited). Places count as any entry. */
  async function manual(eventId: string, raw: ManualEntryInput, actorSub: string): Promise<StaffEntry> {
    const input = manualEntryInputSchema.parse(raw);
    const terms = await settingsRepo.eventTerms(database, eventId);
    if (!terms) throw errors.notFound('REGISTRATION_NOT_FOUND', 'Set the registration up first');
    const rules = await entryRules(database, eventId);
    const at = now();
    const checked = await checkRunner(database, eventId, rules, input.runner, 'runner.', at, {
      ignoreOpening: true,
    });
    if (!checked.runner) throw fieldProblem(400, checked.errors);
    const r = checked.runner;
    const code = repo.newEntryCode();
    const contexts = await database.transaction(async (sql) => {
      const units = {
        raceId: r.race.raceId,
        addOns: r.addOns.map((a) => ({ id: a.id, quantity: a.quantity })),
        codeId: r.code?.id ?? null,
      };
      const out = await holdEntry(sql, units);
      if (out)
        throw fieldProblem(409, [
          {
            field: `runner.${out === 'race' ? 'raceId' : out === 'addOn' ? 'addOns' : 'discountCode'}`,
            code: out === 'race' ? 'RACE_FULL' : out === 'addOn' ? 'ADDON_SOLD_OUT' : 'CODE_USED_UP',
          },
        ]);
      const comped = input.payment === 'comped';
      let orderId: string | null = null;
      if (!comped && r.totalCents > 0) {
        orderId = await nextOrderId(sql);
        await insertOrder(sql, {
          id: orderId,
          depositId: null,
          registration: true,
          eventId,
          payerSub: null,
          company: false,
          state: 'awaiting_payment',
          amountCents: r.totalCents,
          currency: terms.currency,
          structured: await freeStructured(sql),
          expiresAt: new Date(at.getTime() + 3650 * 86_400_000),
          lines: [],
        });
      }
      const id = await repo.insertEntry(sql, {
        code,
        eventId,
        raceId: r.race.raceId,
        orderId,
        accountSub: null,
        email: r.details.email,
        lang: 'en',
        state: 'held',
        details: r.details,
        answers: r.answers,
        addOns: r.addOns,
        codeId: r.code?.id ?? null,
        memberCode: r.memberCode,
        entryCents: comped ? 0 : r.entryCents,
        discountCents: comped ? 0 : r.discountCents,
        addOnsCents: comped ? 0 : r.addOnsCents,
        waiverVersion: null,
        holdExpiresAt: null,
        waitlistId: null,
        source: 'manual',
      });
      await auditEntry(sql, { code, eventId }, comped ? 'manual_comped' : 'manual_on_site', actorSub, {
        totalCents: comped ? 0 : r.totalCents,
      });
      const [row] = await repo.entriesWhere(sql, 'e.id = $1::bigint', [id]);
      if (orderId) {
        // Cash taken at the desk: money received once, audited, settled by the payments module
        // (which confirms the held entry as for any payment).
        const [order] = await ordersWhere(sql, 'o.id = $1::bigint', [orderId]);
        await payments.receive(sql, order as OrderRow, {
          provider: 'bank',
          providerRef: `onsite:${code}`,
          amountCents: r.totalCents,
          actorSub,
          note: 'paid on site',
        });
      } else {
        await eachUnit(sql, units, confirmUnits);
        await confirmEntry(sql, row as repo.EntryRow, actorSub);
      }
      return contextsOf(sql, [r.race.raceId]);
    });
    for (const db of contexts) await ctx.results.reload(db);
    await mails.mailConfirmations();
    return entry(eventId, code);
  }

  /** More places in a race; the waitlist is invited first. */
  async function release(raceId: string, places: number) {
    const race = await settingsRepo.raceRegistration(database, raceId);
    if (!race) throw errors.notFound('REGISTRATION_NOT_FOUND', 'This race takes no entries online');
    const terms = await settingsRepo.eventTerms(database, race.eventId);
    const invitations = await database.transaction(async (sql) => {
      await sql.query(
        'UPDATE registration_races SET capacity = coalesce(capacity, taken + held) + $2 WHERE race_id = $1',
        [raceId, places],
      );
      return advanceWaitlist(sql, raceId, now(), terms?.waitlistMinutes ?? 1440);
    });
    await mails.mailInvitations(race.eventId, invitations);
    return { invited: invitations.length };
  }

  return { list, table, history, entry, manual, release };
}
