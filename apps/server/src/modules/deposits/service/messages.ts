import type { MessageInput } from '@tempora/contracts';
import { type SharedNamespaces, sharedLocales } from '@tempora/contracts/locales';
import * as payRepo from '../../payments/port.ts';
import { assessEntry } from '../entry-rules.ts';
import * as repo from '../repository.ts';
import { type DepositsContext, htmlOf } from './shared.ts';

/**
 * A deposit's messages (issue 18): the captain's mail to an audience (everyone, those missing
 * fields, those not paid yet, or the organiser), stored with its recipients, and the notices to
 * the organiser.
 */
export function createMessages(ctx: DepositsContext) {
  const { database, outbox, link } = ctx;

  /** A notice to the organisation's owners and staff, each in their account's language (issue 41). */
  async function notifyOrganiser(
    deposit: repo.DepositRow,
    notice: keyof SharedNamespaces['mails']['depositNotice'],
    body: string,
  ) {
    for (const to of await repo.organiserRecipients(database, deposit.organisationId)) {
      const subject = sharedLocales[to.lng].mails.depositNotice[notice];
      const text = `${deposit.eventName} — ${deposit.organisationName}\n${body}\n${link(`/deposit/${deposit.eventId}/${deposit.id}/overview`)}`;
      await outbox.send({
        to: to.email,
        subject: `${deposit.eventName}: ${subject}`,
        text,
        html: htmlOf(text),
      });
    }
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

  return { notifyOrganiser, postMessage };
}

export type Messages = ReturnType<typeof createMessages>;
