import type * as Fxp from 'fast-xml-parser';
import { lazyRequire } from '../../../lib/lazy-require.ts';

const fxp = lazyRequire<typeof Fxp>('fast-xml-parser');

import { type ParsedMovement, type ParsedStatement, StatementError } from './statement.ts';

/**
 * camt.053 (ISO 20022 "BankToCustomerStatement", versions 001.02 to 001.13 share these paths):
 * `Document/BkToCstmrStmt/Stmt[]` with `Acct/Id/IBAN`, `Ntry[]` (`Amt@Ccy`, `CdtDbtInd` CRDT or
 * DBIT, `Sts` BOOK, `BookgDt/Dt`, `AcctSvcrRef`) and their `NtryDtls/TxDtls[]` (`Refs`,
 * `RmtInf/Strd/CdtrRefInf/Ref` — the Belgian structured communication, type BBA or SCOR —,
 * `RmtInf/Ustrd`, `RltdPties/Dbtr/Nm`, `RltdPties/DbtrAcct/Id/IBAN`). A batched entry with several
 * transaction details yields one movement per detail. Only booked entries count (pending ones
 * may still change). External entities are never expanded.
 */
const ARRAYS = new Set(['Stmt', 'Ntry', 'NtryDtls', 'TxDtls', 'Bal', 'Ustrd', 'Strd']);

type Node = Record<string, unknown>;

export function parseCamt053(xml: string): ParsedStatement {
  const valid = fxp().XMLValidator.validate(xml);
  if (valid !== true) throw new StatementError(valid.err.msg, `line ${valid.err.line}`);
  const doc = new (fxp().XMLParser)({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    removeNSPrefix: true,
    parseTagValue: false,
    processEntities: false,
    isArray: (name) => ARRAYS.has(name),
  }).parse(xml) as Node;
  const statements = get(doc, 'Document', 'BkToCstmrStmt', 'Stmt');
  if (!Array.isArray(statements) || statements.length === 0) {
    throw new StatementError('not a camt.053 statement (Document/BkToCstmrStmt/Stmt)', 'Document');
  }
  let account = '';
  let currency = 'EUR';
  let date: string | null = null;
  const movements: ParsedMovement[] = [];
  statements.forEach((stmt: Node, s) => {
    account = text(get(stmt, 'Acct', 'Id', 'IBAN')) || text(get(stmt, 'Acct', 'Id', 'Othr', 'Id'));
    currency = text(get(stmt, 'Acct', 'Ccy')) || currency;
    date = (text(get(stmt, 'CreDtTm')) || '').slice(0, 10) || date;
    const stmtId = text(get(stmt, 'Id')) || String(s);
    for (const [n, entry] of ((get(stmt, 'Ntry') as Node[] | undefined) ?? []).entries()) {
      const status = text(get(entry, 'Sts', 'Cd')) || text(get(entry, 'Sts'));
      if (status && status !== 'BOOK') continue;
      const sign = text(get(entry, 'CdtDbtInd'));
      if (sign !== 'CRDT' && sign !== 'DBIT')
        throw new StatementError('CdtDbtInd is CRDT or DBIT', `Ntry ${n + 1}`);
      const entryCcy = text(get(entry, 'Amt', '@Ccy')) || currency;
      const booking =
        (text(get(entry, 'BookgDt', 'Dt')) || text(get(entry, 'BookgDt', 'DtTm'))).slice(0, 10) || null;
      const entryRef = text(get(entry, 'AcctSvcrRef')) || text(get(entry, 'NtryRef')) || `${stmtId}/${n + 1}`;
      const details = ((get(entry, 'NtryDtls') as Node[] | undefined) ?? []).flatMap(
        (d) => (get(d, 'TxDtls') as Node[] | undefined) ?? [],
      );
      const parts = details.length ? details : [null];
      parts.forEach((tx, k) => {
        const amountText =
          tx && details.length > 1
            ? text(get(tx, 'Amt')) || text(get(tx, 'AmtDtls', 'TxAmt', 'Amt'))
            : text(get(entry, 'Amt'));
        const cents = cents_(amountText, `Ntry ${n + 1}`);
        const strd = tx ? ((get(tx, 'RmtInf', 'Strd') as Node[] | undefined) ?? []) : [];
        const structured = strd
          .map((x) => text(get(x, 'CdtrRefInf', 'Ref')).replace(/\D/g, ''))
          .find((r) => r.length === 12);
        const ustrd = tx ? ((get(tx, 'RmtInf', 'Ustrd') as unknown[] | undefined) ?? []).map(text) : [];
        const info = text(get(entry, 'AddtlNtryInf'));
        const party = sign === 'CRDT' ? 'Dbtr' : 'Cdtr';
        movements.push({
          bankRef: `camt:${account}:${entryRef}${parts.length > 1 ? `#${k + 1}` : ''}`,
          amountCents: sign === 'DBIT' ? -cents : cents,
          currency: entryCcy,
          bookingDate: booking,
          structured: structured ?? null,
          freeText: [...ustrd, ...(ustrd.length ? [] : [info])].join(' ').replace(/\s+/g, ' ').trim(),
          counterpartyName: tx
            ? text(get(tx, 'RltdPties', party, 'Nm')) || text(get(tx, 'RltdPties', party, 'Pty', 'Nm'))
            : '',
          counterpartyAccount: tx ? text(get(tx, 'RltdPties', `${party}Acct`, 'Id', 'IBAN')) : '',
        });
      });
    }
  });
  if (!account) throw new StatementError('no account (Stmt/Acct/Id/IBAN)', 'Stmt');
  return { format: 'camt053', account, currency, date, movements };
}

function get(node: unknown, ...path: string[]): unknown {
  let at = node;
  for (const key of path) {
    if (at === null || typeof at !== 'object') return undefined;
    at = Array.isArray(at) ? (at[0] as Node | undefined)?.[key] : (at as Node)[key];
  }
  return at;
}

/** The text of an element, whether it has attributes (`#text`) or not. */
function text(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'object') return text((v as Node)['#text']);
  return String(v).trim();
}

function cents_(amount: string, where: string): number {
  if (!/^\d+(\.\d{1,2})?$/.test(amount))
    throw new StatementError(`amount '${amount}' is not a decimal`, where);
  const [units, decimals = ''] = amount.split('.');
  return Number(units) * 100 + Number(decimals.padEnd(2, '0'));
}
