import { interpolate, sharedLocales } from '@tempora/contracts/locales';
import type { Mail } from '../../../identity/outbox.ts';
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

  async function send(
    to: string,
    subject: string,
    lines: string[],
    action?: string,
    extra: { html?: string; attachments?: Mail['attachments'] } = {},
  ) {
    const text = lines.join('\n');
    // `link`: printed on the development console (the outbox's convention for action links).
    await outbox.send({
      to,
      subject,
      text,
      html: htmlOf(text) + (extra.html ?? ''),
      ...(action ? { link: action } : {}),
      ...(extra.attachments ? { attachments: extra.attachments } : {}),
    });
  }

  /**
   * pngjs's options for the QR code: the "up" filter (a QR code's rows repeat) and zlib's default
   * strategy: a quarter of the CPU of pngjs's adaptive filtering (the typings omit `filterType`)
   * and a smaller file (issue 38: the rush mails 5,000 of them).
   */
  const QR_PNG = { filterType: 2, deflateLevel: 6, deflateStrategy: 0 };

  /** Confirmations not mailed yet (each once: `mailed_at`). */
  async function mailConfirmations(orderId?: string) {
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
      `UPDATE registration_entries e SET mailed_at = now() FROM races r, events ev
        WHERE e.state = 'confirmed' AND e.mailed_at IS NULL AND r.id = e.race_id AND ev.id = e.event_id
          AND ($1::bigint IS NULL OR e.order_id = $1::bigint)
       RETURNING e.id::text AS id, e.code, e.email, e.lang, trim((e.details->>'firstName') || ' ' || (e.details->>'lastName')) AS name,
                 r.name AS race, to_char(r.race_date, 'YYYY-MM-DD') AS date, ev.name AS event,
                 (SELECT o.id::text FROM orders o JOIN invoices i ON i.order_id = o.id
                   WHERE o.id = e.order_id AND o.payer_sub = e.account_sub) AS "invoiceOrder"`,
      [orderId ?? null],
    );
    const { default: QRCode } = rows.length ? await import('qrcode') : { default: null };
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
      const qr = await QRCode?.toBuffer(r.code, {
        type: 'png',
        errorCorrectionLevel: 'M',
        margin: 2,
        width: 300,
        rendererOpts: QR_PNG,
      });
      const ics = calendar(
        { code: r.code, eventName: r.event, raceName: r.race, raceDate: r.date },
        ctx.publicUrl ?? '',
      );
      await send(
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
            ...(qr
              ? [{ filename: `${r.code}.png`, content: qr, contentType: 'image/png', cid: 'entry-qr' }]
              : []),
            { filename: `${r.code}.ics`, content: ics, contentType: 'text/calendar; charset=utf-8' },
          ],
        },
      );
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

  return { mailConfirmations, mailInvitations, mailRefund };
}
