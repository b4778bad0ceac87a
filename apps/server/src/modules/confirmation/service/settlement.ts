import type { DocumentStatus } from '@tempora/contracts';
import { documentOrder, orderForDocument, paymentTerms } from '../../payments/port.ts';
import { documentMail } from '../mail.ts';
import { buildReport } from '../report.ts';
import * as repo from '../repository.ts';
import type { Actor, ConfirmationContext } from './shared.ts';
import type { Views } from './views.ts';

/**
 * Where a document's rows lead it (issues 17, 29): the status they give it, its bill once it is
 * confirmed, and the mails to its contact (confirmed, rejected).
 */
export function createSettlement(ctx: ConfirmationContext, views: Views) {
  const { database, outbox, publicUrl, history, reload } = ctx;
  const { summarise } = views;

  /** The status the rows give a mapped document (validated, partly confirmed, confirmed). */
  async function statusFromRows(documentId: string): Promise<DocumentStatus> {
    const c = (await repo.countsOf(database, [documentId])).get(documentId);
    if (!c || c.confirmed === 0) return 'validated';
    return c.pending > 0 ? 'partlyConfirmed' : 'confirmed';
  }

  /** Moves a mapped document to the status its rows give (history; mail when it becomes confirmed). */
  async function settleStatus(doc: repo.DocumentRecord, actor: Actor | null) {
    const status = await statusFromRows(doc.id);
    if (status === doc.status) return;
    await repo.updateDocument(database, doc.id, { status });
    await history(doc.id, actor, status);
    if (status === 'confirmed') {
      await billDocument(await reload(doc.id), actor);
      await notify(await reload(doc.id), 'confirmed');
    }
  }

  /**
   * A confirmed document's fees become an order of its sender (issue 29), with a structured
   * communication and an invoice: the report's total (merged pupils are not billed again).
   */
  async function billDocument(doc: repo.DocumentRecord, actor: Actor | null) {
    const [summary] = await summarise([doc]);
    const report = buildReport(
      summary!,
      doc,
      await repo.rowsOf(database, doc.id),
      await repo.racesOfEvents(database, [doc.eventId]),
    );
    const orderId = await database.transaction((sql) => orderForDocument(sql, doc, report.totals.feesCents));
    if (orderId) await history(doc.id, actor, 'billed', { orderId, feesCents: report.totals.feesCents });
  }

  async function notify(doc: repo.DocumentRecord, kind: 'confirmed' | 'rejected') {
    const [summary] = await summarise([doc]);
    const order = kind === 'confirmed' ? await documentOrder(database, doc.id) : null;
    const settings = order ? await paymentTerms(database, doc.eventId) : null;
    const payment = order && {
      ...order,
      iban: settings?.iban ?? '',
      beneficiary: settings?.beneficiary ?? '',
    };
    await outbox.send({
      to: doc.contactEmail,
      ...documentMail(kind, summary!, doc, publicUrl, payment ?? undefined),
    });
    await history(doc.id, null, 'mailed', { to: doc.contactEmail, kind });
  }

  return { settleStatus, notify };
}

export type Settlement = ReturnType<typeof createSettlement>;
