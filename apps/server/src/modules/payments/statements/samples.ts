/**
 * Sample bank statements built from the published layouts (Febelfin CODA 2.6, ISO 20022
 * camt.053.001.08), for tests and the e2e journey: a statement of the organiser's account with the
 * given credits and debits. Not used by the product itself.
 */

export interface SampleMovement {
  amountCents: number;
  /** 12 digits, carried as a structured communication (CODA type 1 + 101; camt Strd/CdtrRefInf). */
  structured?: string;
  freeText?: string;
  name?: string;
  iban?: string;
  ref?: string;
}

const IBAN = 'BE68539007547034';

const fixed = (s: string, n: number) => s.slice(0, n).padEnd(n, ' ');
const num = (v: number, n: number) => String(v).padStart(n, '0');
const amount15 = (cents: number) => num(Math.abs(cents) * 10, 15);

/** A CODA file (records 0, 1, 21/22/23 per movement, 8, 9) dated `date` (YYYY-MM-DD). */
export function sampleCoda(
  movements: SampleMovement[],
  date = '2026-04-20',
  oldBalanceCents = 100_000,
): string {
  const d = `${date.slice(8, 10)}${date.slice(5, 7)}${date.slice(2, 4)}`;
  const rec = (...parts: string[]) => {
    const r = parts.join('');
    if (r.length !== 128) throw new Error(`record of ${r.length} characters: ${r}`);
    return r;
  };
  const lines: string[] = [];
  // 0: header. 1 '0', 2-5 zeros, 6-11 date, 12-14 bank, 15-16 '05', 17 dup, 18-24 blank, 25-34 ref,
  // 35-60 addressee, 61-71 BIC, 72-82 company id, 83 blank, 84-88 sep. app, 89-104, 105-120, 121-127, 128 version.
  lines.push(
    rec(
      '0',
      '0000',
      d,
      '725',
      '05',
      ' ',
      fixed('', 7),
      fixed('00417967', 10),
      fixed('TEMPORA EVENTS', 26),
      fixed('KREDBEBB', 11),
      num(0, 11),
      ' ',
      '00000',
      fixed('', 16),
      fixed('', 16),
      fixed('', 7),
      '2',
    ),
  );
  // 1: old balance with an IBAN (structure 2): 6-39 IBAN, 40-42 currency, 43 sign, 44-58 amount,
  // 59-64 date, 65-90 holder, 91-125 description, 126-128 statement number.
  lines.push(
    rec(
      '1',
      '2',
      '042',
      fixed(IBAN, 34),
      'EUR',
      oldBalanceCents < 0 ? '1' : '0',
      amount15(oldBalanceCents),
      d,
      fixed('TEMPORA EVENTS', 26),
      fixed('Compte courant', 35),
      '042',
    ),
  );
  let credit = 0;
  let debit = 0;
  movements.forEach((m, k) => {
    const seq = num(k + 1, 4);
    if (m.amountCents >= 0) credit += m.amountCents;
    else debit -= m.amountCents;
    const structured = m.structured !== undefined;
    const zone = structured ? `101${m.structured}` : (m.freeText ?? '');
    // 21: 3-6 seq, 7-10 detail, 11-31 bank ref, 32 sign, 33-47 amount, 48-53 value date, 54-61 code,
    // 62 comm type, 63-115 comm, 116-121 entry date, 122-124 statement, 125 glob., 126 next, 127, 128 link.
    lines.push(
      rec(
        '2',
        '1',
        seq,
        '0000',
        fixed(m.ref ?? `EBK${date.replaceAll('-', '')}${seq}`, 21),
        m.amountCents < 0 ? '1' : '0',
        amount15(m.amountCents),
        d,
        '00150000',
        structured ? '1' : '0',
        fixed(zone, 53),
        d,
        '042',
        '0',
        '1',
        ' ',
        '0',
      ),
    );
    // 22: 11-63 comm (cont.), 64-98 customer ref, 99-109 BIC, 110-112, 113, 114-117, 118-121, 122-125, 126 next, 127, 128.
    lines.push(
      rec(
        '2',
        '2',
        seq,
        '0000',
        fixed(structured ? '' : (m.freeText ?? '').slice(53), 53),
        fixed('', 35),
        fixed('GEBABEBB', 11),
        '   ',
        ' ',
        '    ',
        '    ',
        '    ',
        '1',
        ' ',
        '0',
      ),
    );
    // 23: 11-47 counterparty account + currency, 48-82 name, 83-125 comm (cont.), 126 next, 127, 128.
    lines.push(
      rec(
        '2',
        '3',
        seq,
        '0000',
        fixed(m.iban ?? 'BE71096123456769', 34),
        'EUR',
        fixed(m.name ?? 'ACME SA', 35),
        fixed('', 43),
        '0',
        ' ',
        '0',
      ),
    );
  });
  const closing = oldBalanceCents + credit - debit;
  // 8: 2-4 statement, 5-41 account + currency, 42 sign, 43-57 amount, 58-63 date, 64-127 blank, 128 link.
  lines.push(
    rec(
      '8',
      '042',
      fixed(IBAN, 34),
      'EUR',
      closing < 0 ? '1' : '0',
      amount15(closing),
      d,
      fixed('', 64),
      '0',
    ),
  );
  // 9: 2-16 blank, 17-22 record count, 23-37 debits, 38-52 credits, 53-127 blank, 128 last file.
  lines.push(
    rec('9', fixed('', 15), num(lines.length - 1, 6), amount15(debit), amount15(credit), fixed('', 75), '2'),
  );
  return `${lines.join('\r\n')}\r\n`;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const euros = (cents: number) => (Math.abs(cents) / 100).toFixed(2);

/** A camt.053.001.08 statement of one account with one entry per movement. */
export function sampleCamt053(movements: SampleMovement[], date = '2026-04-20'): string {
  const entries = movements
    .map((m, k) => {
      const credit = m.amountCents >= 0;
      const party = credit ? 'Dbtr' : 'Cdtr';
      const rmt = m.structured
        ? `<Strd><CdtrRefInf><Tp><CdOrPrtry><Cd>SCOR</Cd></CdOrPrtry><Issr>BBA</Issr></Tp><Ref>${m.structured}</Ref></CdtrRefInf></Strd>`
        : `<Ustrd>${esc(m.freeText ?? '')}</Ustrd>`;
      return `
      <Ntry>
        <Amt Ccy="EUR">${euros(m.amountCents)}</Amt>
        <CdtDbtInd>${credit ? 'CRDT' : 'DBIT'}</CdtDbtInd>
        <Sts><Cd>BOOK</Cd></Sts>
        <BookgDt><Dt>${date}</Dt></BookgDt>
        <ValDt><Dt>${date}</Dt></ValDt>
        <AcctSvcrRef>${esc(m.ref ?? `${date.replaceAll('-', '')}-${k + 1}`)}</AcctSvcrRef>
        <BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>RCDT</Cd><SubFmlyCd>ESCT</SubFmlyCd></Fmly></Domn></BkTxCd>
        <NtryDtls><TxDtls>
          <Refs><EndToEndId>NOTPROVIDED</EndToEndId></Refs>
          <Amt Ccy="EUR">${euros(m.amountCents)}</Amt>
          <CdtDbtInd>${credit ? 'CRDT' : 'DBIT'}</CdtDbtInd>
          <RltdPties><${party}><Nm>${esc(m.name ?? 'ACME SA')}</Nm></${party}><${party}Acct><Id><IBAN>${m.iban ?? 'BE71096123456769'}</IBAN></Id></${party}Acct></RltdPties>
          <RmtInf>${rmt}</RmtInf>
        </TxDtls></NtryDtls>
      </Ntry>`;
    })
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08">
  <BkToCstmrStmt>
    <GrpHdr><MsgId>STMT-${date}</MsgId><CreDtTm>${date}T18:00:00</CreDtTm></GrpHdr>
    <Stmt>
      <Id>${date}-042</Id>
      <ElctrncSeqNb>42</ElctrncSeqNb>
      <CreDtTm>${date}T18:00:00</CreDtTm>
      <Acct><Id><IBAN>${IBAN}</IBAN></Id><Ccy>EUR</Ccy></Acct>${entries}
    </Stmt>
  </BkToCstmrStmt>
</Document>
`;
}
