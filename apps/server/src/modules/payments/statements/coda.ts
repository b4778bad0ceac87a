import { type ParsedMovement, type ParsedStatement, StatementError } from './statement.ts';

/**
 * CODA, Febelfin's "coded statement of account" (standard 2.x): fixed-width records of 128
 * characters. Read here: 0 header, 1 old balance (account, currency), 21/22/23 movement records
 * (amount, sign, communication: type 1 + "101" or "102" = a structured communication, counterparty
 * in 22/23), 3x information records (skipped), 4 free messages (skipped), 8 new balance, 9
 * trailer (debit and credit totals). The file is refused when a record is malformed, when the
 * balances do not add up, or when the trailer's totals disagree with the movements.
 *
 * Positions below are 1-based as in the Febelfin document.
 */
export function parseCoda(text: string): ParsedStatement {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  if (lines.length === 0) throw new StatementError('empty file', 'line 1');
  const records = lines.map((raw, k) => {
    if (raw.length > 128) throw new StatementError('a record is 128 characters', `line ${k + 1}`);
    // Some banks strip trailing blanks: pad back to the standard width.
    return { line: k + 1, r: raw.padEnd(128, ' ') };
  });
  const at = (r: string, from: number, to: number) => r.slice(from - 1, to);
  const fail = (line: number, message: string): never => {
    throw new StatementError(message, `line ${line}`);
  };

  const header = records[0]!;
  if (at(header.r, 1, 1) !== '0') fail(header.line, 'the first record is the header (0)');
  if (at(header.r, 16, 16) !== '5' && at(header.r, 15, 16) !== '05')
    fail(header.line, 'application code 05 expected');
  let account = '';
  let currency = 'EUR';
  let date: string | null = null;
  let statementNo = '';
  let oldBalance: number | null = null;
  let newBalance: number | null = null;
  let trailer: { debit: number; credit: number } | null = null;
  type Raw = ParsedMovement & { seq: string; detail: string; global: boolean; comm: string[] };
  const raws: Raw[] = [];

  for (const { line, r } of records.slice(1)) {
    const type = at(r, 1, 1);
    const article = at(r, 2, 2);
    if (type === '1') {
      const structure = at(r, 2, 2);
      // 0/1: Belgian or foreign account number; 2/3: IBAN (34 positions, then the currency).
      account = (structure === '2' || structure === '3' ? at(r, 6, 39) : at(r, 6, 42)).trim();
      currency = at(r, 40, 42).trim() || 'EUR';
      oldBalance = signed(at(r, 43, 43), at(r, 44, 58), line);
      date = ddmmyy(at(r, 59, 64), line);
      statementNo = at(r, 3, 5);
    } else if (type === '2' && article === '1') {
      const sign = at(r, 32, 32);
      const commType = at(r, 62, 62);
      const zone = at(r, 63, 115);
      const structured =
        commType === '1' && (zone.startsWith('101') || zone.startsWith('102')) ? zone.slice(3, 15) : null;
      raws.push({
        seq: at(r, 3, 6),
        detail: at(r, 7, 10),
        global: at(r, 125, 125) !== '0' && at(r, 125, 125) !== ' ',
        bankRef: at(r, 11, 31).trim(),
        amountCents: signed(sign, at(r, 33, 47), line),
        currency,
        bookingDate: ddmmyy(at(r, 116, 121), line),
        structured: structured && /^\d{12}$/.test(structured) ? structured : null,
        freeText: '',
        counterpartyName: '',
        counterpartyAccount: '',
        comm: structured ? [] : [zone],
      });
    } else if (type === '2' && (article === '2' || article === '3')) {
      const last = raws[raws.length - 1];
      if (!last || last.seq !== at(r, 3, 6)) fail(line, `record 2${article} without its record 21`);
      const m = last as { -readonly [K in keyof Raw]: Raw[K] };
      if (article === '2') m.comm.push(at(r, 11, 63));
      else {
        m.counterpartyAccount = at(r, 11, 44).trim();
        m.counterpartyName = at(r, 48, 82).trim();
        m.comm.push(at(r, 83, 125));
      }
    } else if (type === '8') {
      newBalance = signed(at(r, 42, 42), at(r, 43, 57), line);
    } else if (type === '9') {
      trailer = { debit: amount(at(r, 23, 37), line), credit: amount(at(r, 38, 52), line) };
    } else if (type !== '3' && type !== '4') {
      fail(line, `unknown record type ${type}${article}`);
    }
  }
  if (oldBalance === null) throw new StatementError('no old balance record (1)', 'file');
  if (newBalance === null) throw new StatementError('no new balance record (8)', 'file');
  if (!trailer) throw new StatementError('no trailer record (9)', 'file');

  // A global movement (globalisation code > 0) is followed by its details: count it once.
  const detailed = new Set(raws.filter((m) => m.detail !== '0000').map((m) => m.seq));
  const top = raws.filter((m) => m.detail === '0000');
  const credit = top.filter((m) => m.amountCents > 0).reduce((s, m) => s + m.amountCents, 0);
  const debit = -top.filter((m) => m.amountCents < 0).reduce((s, m) => s + m.amountCents, 0);
  if (credit !== trailer.credit || debit !== trailer.debit) {
    throw new StatementError('the trailer totals disagree with the movements', 'record 9');
  }
  if (oldBalance + credit - debit !== newBalance) {
    throw new StatementError('old balance + movements ≠ new balance', 'record 8');
  }
  const movements = raws
    .filter((m) => !(m.global && m.detail === '0000' && detailed.has(m.seq)))
    .map(({ seq, detail, global: _g, comm, ...m }) => ({
      ...m,
      bankRef: `coda:${account}:${statementNo}:${seq}:${detail}:${m.bankRef}`,
      // The communication zones of 21, 22 and 23 are one text cut at fixed widths.
      freeText: comm.join('').replace(/\s+/g, ' ').trim(),
    }));
  return { format: 'coda', account, currency, date, movements };
}

/** An amount of 15 digits, 3 of them decimals, in cents. */
function amount(digits: string, line: number): number {
  if (!/^\d{15}$/.test(digits)) throw new StatementError('an amount is 15 digits', `line ${line}`);
  return Math.round(Number(digits) / 10);
}

/** Sign 0 = credit, 1 = debit (Febelfin). */
function signed(sign: string, digits: string, line: number): number {
  if (sign !== '0' && sign !== '1') throw new StatementError('a sign is 0 or 1', `line ${line}`);
  const cents = amount(digits, line);
  return sign === '1' ? -cents : cents;
}

function ddmmyy(v: string, line: number): string | null {
  if (v.trim() === '' || v === '000000') return null;
  if (!/^\d{6}$/.test(v)) throw new StatementError('a date is DDMMYY', `line ${line}`);
  return `20${v.slice(4, 6)}-${v.slice(2, 4)}-${v.slice(0, 2)}`;
}
