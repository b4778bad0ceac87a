import { interpolate, sharedLocales } from '@tempora/contracts/locales';
import type { Mail } from '../../../identity/outbox.ts';
import { qrPng } from '../../../lib/qr-png.ts';
import { calendar } from './calendar.ts';
import type { EntriesContext } from './shared.ts';
import type { Invitation } from './waitlist.ts';

/** The plain text of a mail as minimal HTML (escaped, line breaks kept). */
const htmlOf = (text: string) =>
  `<p>${text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\n/g, '<br>')}</p>`;

/**
 * The entries' mails (issue 38), in the runner's language, through the outbox: the confirmation
 * (entry code, link to the entry page with its QR code and .ics), a waitlist invitation, an
 * automatic refund. Words from the one label source (`mails` namespace).
 */
export function createMails(ctx: EntriesContext) {
  const { database, outbox, link } = ctx;

  /** A mail of plain lines (and its HTML twin). */
  function mailOf(
    to: string,
    subject: string,
    lines: string[],
    action?: string,
    extra: { html?: string; attachments?: Mail['attachments'] } = {},
  ): Mail {
    const text = lines.join('\n');
    // `link`: printed on the development console (the outbox's convention for action links).
    return {
      to,
      subject,
      text,
      html: htmlOf(text) + (extra.html ?? ''),
      ...(action ? { link: action } : {}),
      ...(extra.attachments ? { attachments: extra.attachments } : {}),
    };
  }

  async function send(...args: Parameters<typeof mailOf>) {
    await outbox.send(mailOf(...args));
  }

  /** Confirmations written and marked in one transaction (the rest of a batch waits its turn). */
  const MAIL_BATCH = 25;

  /**
   * Confirmations not mailed yet (each once: `mailed_at`), `MAIL_BATCH` at a time: the entries
   * are read, their mails made (QR code, calendar file) outside any transaction, then one
   * transaction marks those still unmailed and stores their mails in the outbox — a mail and its
   * mark are kept together or not at all (issue 38: before, `mailed_at` was set first and a crash
   * or a stop while the mails were made lost them; a sweep that took 345 entries of a rush at
   * once lost those the server had not stored when it stopped). Two callers (a webhook's, the
   * sweep's; two nodes) may make the same mail: only one marks it, the other's is dropped.
   */
  async function mailConfirmations(orderId?: string) {
    for (;;) {
      const rows = await database.query<{
        id: string;
        code: string;
        email: string;
        lang: 'en' | 'fr';
        name: string;
        race: string;
        date: string;
        event: string;
        invoiceOrder: string | null;
      }>(
        `SELECT e.id::text AS id, e.code, e.email, e.lang, trim((e.details->>'firstName') || ' ' || (e.details->>'lastName')) AS name,
                r.name AS race, to_char(r.race_date, 'YYYY-MM-DD') AS date, ev.name AS event,
                (SELECT o.id::text FROM orders o JOIN invoices i ON i.order_id = o.id
                  WHERE o.id = e.order_id AND o.payer_sub = e.account_sub) AS "invoiceOrder"
           FROM registration_entries e JOIN races r ON r.id = e.race_id JOIN events ev ON ev.id = e.event_id
          WHERE e.state = 'confirmed' AND e.mailed_at IS NULL AND ($1::bigint IS NULL OR e.order_id = $1::bigint)
          ORDER BY e.id LIMIT ${MAIL_BATCH}`,
        [orderId ?? null],
      );
      if (!rows.length) return;
      const made: { id: string; mail: Mail }[] = [];
      for (const r of rows) {
        const words = sharedLocales[r.lang].mails.entryConfirmed;
        // The invoice, for the runner whose account paid it (a family's payer; not a member paid for):
        // the order page downloads it once signed in (the PDF is the payer's or the staff's alone).
        const { invoiceOrder, ...row } = r;
        const values = {
          ...row,
          link: link(`/entries/entry/${r.code}`),
          invoiceLink: invoiceOrder ? link(`/entries/orders/${invoiceOrder}?invoice=1`) : '',
        };
        // The entry code as a QR code (shown at pickup, issue 39) and the race day as a calendar file.
        const qr = qrPng(r.code, { width: 300, margin: 2 });
        const ics = calendar(
          { code: r.code, eventName: r.event, raceName: r.race, raceDate: r.date },
          ctx.publicUrl ?? '',
        );
        made.push({
          id: r.id,
          mail: mailOf(
            r.email,
            interpolate(words.subject, values),
            [
              interpolate(words.body, values),
              interpolate(words.code, values),
              interpolate(words.link, values),
              ...(invoiceOrder ? [interpolate(words.invoice, values)] : []),
              words.attached,
            ],
            values.link,
            {
              html: `<p><img src="cid:entry-qr" alt="${r.code}" width="200" height="200"></p>`,
              attachments: [
                { filename: `${r.code}.png`, content: qr, contentType: 'image/png', cid: 'entry-qr' },
                { filename: `${r.code}.ics`, content: ics, contentType: 'text/calendar; charset=utf-8' },
              ],
            },
          ),
        });
      }
      const send = await database.transaction(async (sql) => {
        const marked = new Set(
          (
            await sql.query<{ id: string }>(
              `UPDATE registration_entries SET mailed_at = now()
                WHERE id = ANY($1::bigint[]) AND mailed_at IS NULL AND state = 'confirmed' RETURNING id::text AS id`,
              [made.map((m) => m.id)],
            )
          ).map((r) => r.id),
        );
        return outbox.storeMany(
          sql,
          made.filter((m) => marked.has(m.id)).map((m) => m.mail),
        );
      });
      send();
      if (rows.length < MAIL_BATCH) return;
    }
  }

  async function mailInvitations(eventId: string, invitations: readonly Invitation[]) {
    if (!invitations.length) return;
    const [ev] = await database.query<{ name: string }>('SELECT name FROM events WHERE id = $1', [eventId]);
    for (const inv of invitations) {
      const [race] = await database.query<{ name: string }>('SELECT name FROM races WHERE id = $1', [
        inv.raceId,
      ]);
      const words = sharedLocales[inv.lang].mails.entryInvitation;
      const values = {
        event: ev?.name ?? eventId,
        race: race?.name ?? inv.raceId,
        until: inv.invitedUntil.slice(0, 16).replace('T', ' '),
        link: link(`/entries/${eventId}?race=${encodeURIComponent(inv.raceId)}&invitation=${inv.token}`),
      };
      await send(
        inv.email,
        interpolate(words.subject, values),
        [interpolate(words.body, values)],
        values.link,
      );
    }
  }

  /**
   * Runners still waiting in a race whose registration has closed at `at` (its closing time
   * passed, or the organiser moved it earlier): each is told once, in their language, that the
   * waitlist will not give them a place. The rows are marked `closed` (`closed_at`) and their mails
   * stored in the outbox in one transaction, so a retry, a second sweep or a second node finds
   * nothing left to tell (the UPDATE locks the rows: a concurrent one waits, then skips them).
   * Invitations already out stay valid until their time runs out. Returns how many were told.
   */
  async function mailWaitlistClosed(at: Date): Promise<number> {
    return tellOnce(
      'entryWaitlistClosed',
      `WITH closed AS (
         UPDATE registration_waitlist w SET state = 'closed', closed_at = $1, token = NULL
           FROM registration_races g
          WHERE g.race_id = w.race_id AND w.state = 'waiting' AND g.closes_at <= $1
         RETURNING w.id, w.email, w.lang, w.race_id, g.event_id
       )
       SELECT c.email, c.lang, coalesce(r.name, c.race_id) AS race, coalesce(ev.name, c.event_id) AS event
         FROM closed c LEFT JOIN races r ON r.id = c.race_id LEFT JOIN events ev ON ev.id = c.event_id
        ORDER BY c.id`,
      at,
    );
  }

  /**
   * Runners whose waitlist invitation ran out unused (`advanceWaitlist` marked it `expired`: its
   * place went to the next, or the race closed meanwhile): each told once, in their language.
   * Marked (`lapsed_told_at`) and stored in the outbox in one transaction, as `mailWaitlistClosed`.
   * Returns how many were told.
   */
  async function mailInvitationsLapsed(at: Date): Promise<number> {
    return tellOnce(
      'entryInvitationLapsed',
      `WITH lapsed AS (
         UPDATE registration_waitlist w SET lapsed_told_at = $1
          WHERE w.state = 'expired' AND w.lapsed_told_at IS NULL
         RETURNING w.id, w.email, w.lang, w.race_id, w.invited_until
       )
       SELECT l.email, l.lang, coalesce(r.name, l.race_id) AS race, coalesce(ev.name, g.event_id, '') AS event,
              to_char(l.invited_until AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS until
         FROM lapsed l LEFT JOIN races r ON r.id = l.race_id
         LEFT JOIN registration_races g ON g.race_id = l.race_id LEFT JOIN events ev ON ev.id = g.event_id
        ORDER BY l.id`,
      at,
    );
  }

  /**
   * The waitlist's "told once" mails: `marking` (an UPDATE … RETURNING the rows it marks, with
   * `email`, `lang` and the mail's values) and their mails stored in the outbox in one
   * transaction, sent once it commits. Returns how many were told.
   */
  async function tellOnce(
    key: 'entryWaitlistClosed' | 'entryInvitationLapsed',
    marking: string,
    at: Date,
  ): Promise<number> {
    const told = await database.transaction(async (sql) => {
      const rows = await sql.query<{ email: string; lang: 'en' | 'fr' } & Record<string, string>>(marking, [
        at,
      ]);
      const made = rows.map((row) => {
        const words = sharedLocales[row.lang].mails[key];
        return mailOf(row.email, interpolate(words.subject, row), [interpolate(words.body, row)]);
      });
      return { count: made.length, send: await outbox.storeMany(sql, made) };
    });
    told.send();
    return told.count;
  }

  async function mailRefund(
    e: { email: string; lang: 'en' | 'fr'; eventId: string; raceId: string },
    amount: string,
  ) {
    const [row] = await database.query<{ event: string; race: string }>(
      'SELECT ev.name AS event, r.name AS race FROM events ev, races r WHERE ev.id = $1 AND r.id = $2',
      [e.eventId, e.raceId],
    );
    const words = sharedLocales[e.lang].mails.entryRefunded;
    const values = { event: row?.event ?? e.eventId, race: row?.race ?? e.raceId, amount };
    await send(e.email, interpolate(words.subject, values), [interpolate(words.body, values)]);
  }

  return { mailConfirmations, mailInvitations, mailWaitlistClosed, mailInvitationsLapsed, mailRefund };
}
