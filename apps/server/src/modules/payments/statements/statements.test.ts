import { describe, expect, it } from 'vitest';
import { parseCamt053 } from './camt053.ts';
import { parseCoda } from './coda.ts';
import { sampleCamt053, sampleCoda } from './samples.ts';
import { StatementError } from './statement.ts';

const movements = [
  { amountCents: 7500, structured: '123456789002', name: 'ACME SA', iban: 'BE71096123456769' },
  {
    amountCents: 2500,
    freeText: 'Team Acme 20 km de Bruxelles, inscription de Jeanne Dupont et de son collègue Marc',
    name: 'J DUPONT',
  },
  { amountCents: -1234, freeText: 'Frais bancaires' },
];

describe('CODA', () => {
  const file = sampleCoda(movements);

  it('builds records of exactly 128 characters', () => {
    for (const line of file.trim().split('\r\n')) expect(line).toHaveLength(128);
  });

  it('reads the account, the movements, the structured communication and the counterparty', () => {
    const s = parseCoda(file);
    expect(s).toMatchObject({
      format: 'coda',
      account: 'BE68539007547034',
      currency: 'EUR',
      date: '2026-04-20',
    });
    expect(s.movements).toHaveLength(3);
    expect(s.movements[0]).toMatchObject({
      amountCents: 7500,
      structured: '123456789002',
      counterpartyName: 'ACME SA',
      counterpartyAccount: 'BE71096123456769',
      bookingDate: '2026-04-20',
    });
    // The free text continues from record 21 into record 22.
    expect(s.movements[1]!.freeText).toBe(movements[1]!.freeText);
    expect(s.movements[1]!.structured).toBeNull();
    expect(s.movements[2]!.amountCents).toBe(-1234);
    expect(new Set(s.movements.map((m) => m.bankRef)).size).toBe(3);
  });

  it('gives the same references to the same file imported twice', () => {
    expect(parseCoda(file).movements.map((m) => m.bankRef)).toEqual(
      parseCoda(file).movements.map((m) => m.bankRef),
    );
  });

  it('accepts records whose trailing blanks were stripped', () => {
    const stripped = file
      .split('\r\n')
      .map((l) => l.trimEnd())
      .join('\n');
    expect(parseCoda(stripped).movements).toHaveLength(3);
  });

  it('refuses a file whose totals or balances do not add up, or a malformed record', () => {
    const lines = file.trim().split('\r\n');
    const tampered = lines.map((l) =>
      l.startsWith('21') && l.slice(2, 6) === '0001' ? `${l.slice(0, 32)}000000000080000${l.slice(47)}` : l,
    );
    expect(() => parseCoda(tampered.join('\n'))).toThrow(/trailer|balance/);
    expect(() => parseCoda(`${lines[0]}X`)).toThrow(StatementError);
    expect(() => parseCoda(lines.filter((l) => !l.startsWith('8')).join('\n'))).toThrow(/new balance/);
    expect(() => parseCoda('')).toThrow(/empty/);
    expect(() =>
      parseCoda(
        lines
          .map((l) => (l.startsWith('21') ? `${l.slice(0, 32)}00000000ABC0000${l.slice(47)}` : l))
          .join('\n'),
      ),
    ).toThrow(/15 digits/);
  });
});

describe('camt.053', () => {
  const xml = sampleCamt053(movements);

  it('reads booked entries with their structured reference, text and debtor', () => {
    const s = parseCamt053(xml);
    expect(s).toMatchObject({ format: 'camt053', account: 'BE68539007547034', date: '2026-04-20' });
    expect(s.movements.map((m) => m.amountCents)).toEqual([7500, 2500, -1234]);
    expect(s.movements[0]).toMatchObject({
      structured: '123456789002',
      counterpartyName: 'ACME SA',
      counterpartyAccount: 'BE71096123456769',
    });
    expect(s.movements[1]).toMatchObject({
      structured: null,
      freeText: movements[1]!.freeText,
      counterpartyName: 'J DUPONT',
    });
    expect(s.movements[2]!.counterpartyName).toBe('ACME SA'); // the creditor of a debit
  });

  it('skips pending entries and splits a batch into its transactions', () => {
    const pending = xml.replace('<Sts><Cd>BOOK</Cd></Sts>', '<Sts><Cd>PDNG</Cd></Sts>');
    expect(parseCamt053(pending).movements).toHaveLength(2);
    const batch = xml.replace(
      '</TxDtls></NtryDtls>',
      '</TxDtls><TxDtls><Amt Ccy="EUR">0.00</Amt><RmtInf><Ustrd>second</Ustrd></RmtInf></TxDtls></NtryDtls>',
    );
    const s = parseCamt053(batch);
    expect(s.movements).toHaveLength(4);
    expect(s.movements[1]!.bankRef).not.toBe(s.movements[0]!.bankRef);
  });

  it('refuses what is not a statement, or not XML', () => {
    expect(() => parseCamt053('<Document><Other/></Document>')).toThrow(/camt.053/);
    expect(() => parseCamt053('<Document><BkToCstmrStmt>')).toThrow(StatementError);
    expect(() => parseCamt053(xml.replace('7500', '75,00').replace('75.00', '75,00'))).toThrow(/decimal/);
  });
});
