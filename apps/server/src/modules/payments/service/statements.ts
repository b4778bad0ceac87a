import type { StatementImportResult } from '@tempora/contracts';
import { matchStatement } from '@tempora/domain';
import { errors } from '../../../errors.ts';
import * as repo from '../repository.ts';
import { type ParsedStatement, StatementError } from '../statements/statement.ts';
import type { PaymentsContext } from './shared.ts';

/**
 * Bank statements (issue 18): a CODA or camt.053 file parsed, its movements matched to orders
 * by structured communication and amount; matched ones recorded as payments, the others queued
 * for a manual match, known ones skipped; the import audited.
 */
export function createStatements(ctx: PaymentsContext) {
  const { database, results, receive } = ctx;

  async function importStatement(
    organisationId: string,
    actorSub: string,
    text: string,
    format: 'coda' | 'camt053' | undefined,
    fileName: string,
  ): Promise<StatementImportResult> {
    const kind = format ?? (text.trimStart().startsWith('<') ? 'camt053' : 'coda');
    let statement: ParsedStatement;
    try {
      // Parsers load on first use (fast-xml-parser is not needed to start the server).
      statement =
        kind === 'coda'
          ? (await import('../statements/coda.ts')).parseCoda(text)
          : (await import('../statements/camt053.ts')).parseCamt053(text);
    } catch (error) {
      if (error instanceof StatementError) {
        throw errors.badRequest('STATEMENT_INVALID', error.message, [
          { field: error.where, message: error.message },
        ]);
      }
      throw error;
    }
    const known = await repo.knownBankRefs(
      database,
      organisationId,
      statement.movements.map((m) => m.bankRef),
    );
    const orders = await repo.ordersWhere(database, 'ev.organisation_id = $1', [organisationId]);
    const decisions = matchStatement(
      statement.movements,
      orders.map((o) => ({
        id: o.id,
        structured: o.structured,
        amountCents: o.amountCents,
        paidCents: o.paidCents,
        state: o.state,
      })),
      known,
    );
    const counts = { matched: 0, manual: 0, duplicates: 0, debits: 0 };
    const contexts = await database.transaction(async (sql) => {
      const touched: string[] = [];
      const [st] = await sql.query<{ id: string }>(
        `INSERT INTO bank_statements (organisation_id, format, file_name, account, imported_by, movements, matched)
         VALUES ($1, $2, $3, $4, $5, $6, 0) RETURNING id::text`,
        [organisationId, statement.format, fileName, statement.account, actorSub, statement.movements.length],
      );
      const statementId = (st as { id: string }).id;
      for (const [k, m] of statement.movements.entries()) {
        const d = decisions[k]!;
        if (d.kind === 'duplicate') {
          counts.duplicates++;
          continue;
        }
        const state = d.kind === 'matched' ? 'matched' : d.kind === 'debit' ? 'debit' : 'manual';
        const [line] = await sql.query<{ id: string }>(
          `INSERT INTO bank_lines (statement_id, organisation_id, bank_ref, amount_cents, currency, booking_date, structured,
                                   free_text, counterparty_name, counterparty_account, state, reason, allocated_cents)
           VALUES ($1::bigint, $2, $3, $4, $5, $6::date, $7, $8, $9, $10, $11, $12, $13)
           ON CONFLICT (organisation_id, bank_ref) DO NOTHING RETURNING id::text`,
          [
            statementId,
            organisationId,
            m.bankRef,
            m.amountCents,
            m.currency,
            m.bookingDate,
            m.structured,
            m.freeText,
            m.counterpartyName,
            m.counterpartyAccount,
            state,
            d.kind === 'manual' ? d.reason : null,
            d.kind === 'matched' ? d.amountCents : 0,
          ],
        );
        if (!line) {
          counts.duplicates++;
          continue;
        }
        if (d.kind === 'matched') {
          counts.matched++;
          const order = orders.find((o) => o.id === d.orderId) as repo.OrderRow;
          const r = await receive(sql, order, {
            provider: 'bank',
            providerRef: `line:${line.id}`,
            amountCents: d.amountCents,
            bankLineId: line.id,
            note: `${statement.format} ${m.bankRef}`,
          });
          touched.push(...r.contexts);
        } else if (d.kind === 'manual') counts.manual++;
        else counts.debits++;
      }
      await sql.query('UPDATE bank_statements SET matched = $2 WHERE id = $1::bigint', [
        statementId,
        counts.matched,
      ]);
      await repo.audit(sql, {
        organisationId,
        action: 'statement_import',
        actorSub,
        note: `${statement.format} ${statement.account} ${fileName}: ${statement.movements.length} movements, ${counts.matched} matched, ${counts.manual} to the queue`,
      });
      return { touched, statementId };
    });
    for (const db of new Set(contexts.touched)) await results.reload(db);
    return {
      statementId: contexts.statementId,
      format: statement.format,
      account: statement.account,
      movements: statement.movements.length,
      ...counts,
    };
  }

  return { importStatement };
}
