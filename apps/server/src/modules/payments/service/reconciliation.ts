import { checkAllocation, formatStructured, referencesOf } from '@tempora/domain';
import { errors } from '../../../errors.ts';
import * as repo from '../repository.ts';
import type { PaymentsContext } from './shared.ts';

/**
 * The manual queue of bank lines (issue 18): lines no order matched, with candidate orders from
 * their references; a line allocated by hand to one or more orders (audited), or ignored.
 */
export function createReconciliation(ctx: PaymentsContext) {
  const { database, results, receive } = ctx;

  async function queue(organisationId: string) {
    const lines = await repo.bankLinesWhere(database, `organisation_id = $1 AND state = 'manual'`, [
      organisationId,
    ]);
    const orders = await repo.ordersWhere(database, 'ev.organisation_id = $1', [organisationId]);
    const byRef = new Map(orders.map((o) => [o.structured, o.id]));
    return lines.map((l) => ({
      ...l,
      communication: l.structured ? formatStructured(l.structured) : '',
      candidates: referencesOf({
        bankRef: l.bankRef,
        amountCents: l.amountCents,
        structured: l.structured,
        freeText: l.freeText,
      })
        .map((r) => byRef.get(r))
        .filter((x): x is string => Boolean(x)),
    }));
  }

  async function manualMatch(
    organisationId: string,
    lineId: string,
    allocations: { orderId: string; amountCents: number }[],
    actorSub: string,
    note: string,
  ) {
    const [line] = await repo.bankLinesWhere(database, 'id = $1::bigint AND organisation_id = $2', [
      lineId,
      organisationId,
    ]);
    if (!line) throw errors.notFound('BANK_LINE_NOT_FOUND', `No bank line '${lineId}'`);
    if (line.state !== 'manual') throw errors.conflict('BANK_LINE_STATE', `The line is ${line.state}`);
    const problem = checkAllocation(line.amountCents - line.allocatedCents, allocations);
    if (problem)
      throw errors.badRequest('ALLOCATION_INVALID', problem, [{ field: 'allocations', message: problem }]);
    const orders = await Promise.all(allocations.map((a) => repo.findOrder(database, a.orderId)));
    orders.forEach((o, k) => {
      if (!o || o.organisationId !== organisationId) {
        throw errors.badRequest(
          'ORDER_NOT_FOUND',
          `No order '${allocations[k]!.orderId}' of this organisation`,
        );
      }
    });
    const contexts = await database.transaction(async (sql) => {
      const touched: string[] = [];
      for (const [k, a] of allocations.entries()) {
        const r = await receive(sql, orders[k] as repo.OrderRow, {
          provider: 'bank',
          providerRef: `line:${line.id}:order:${a.orderId}`,
          amountCents: a.amountCents,
          actorSub,
          bankLineId: line.id,
          note,
        });
        touched.push(...r.contexts);
      }
      const total = allocations.reduce((s, a) => s + a.amountCents, 0);
      await sql.query(
        `UPDATE bank_lines SET state = 'matched', allocated_cents = allocated_cents + $2 WHERE id = $1::bigint`,
        [line.id, total],
      );
      return touched;
    });
    for (const db of new Set(contexts)) await results.reload(db);
  }

  async function ignoreLine(organisationId: string, lineId: string, actorSub: string, note: string) {
    const rows = await database.query(
      `UPDATE bank_lines SET state = 'ignored' WHERE id = $1::bigint AND organisation_id = $2 AND state = 'manual' RETURNING id`,
      [lineId, organisationId],
    );
    if (!rows.length) throw errors.notFound('BANK_LINE_NOT_FOUND', `No line '${lineId}' in the queue`);
    await repo.audit(database, { organisationId, bankLineId: lineId, action: 'ignore', actorSub, note });
  }

  return { queue, manualMatch, ignoreLine };
}
