import type { OrderDetail } from '@tempora/contracts';
import { labelTable, sideBySide } from '@tempora/contracts/locales';

/**
 * Receipts (PDF) and the accountant's exports (CSV, XLSX) of orders (issue 18). pdfkit and exceljs
 * are loaded on first use: together they add seconds to a cold start for a page few people open.
 */

const money = (cents: number, currency: string) => `${(cents / 100).toFixed(2)} ${currency}`;

/**
 * The words of the receipt and the invoice, in both languages side by side (`Receipt / Reçu`: we
 * do not know the reader's), from the `receipts` namespace of the one label source
 * (packages/contracts/src/locales, issue 30).
 */
const words = /* @__PURE__ */ labelTable((l) => l.receipts);
const say = (key: keyof typeof words) => sideBySide(words[key]);

/** An A4 PDF drawn by `draw` on a pdfkit document (pdfkit loaded at the first PDF), as bytes. */
async function renderPdf(title: string, draw: (doc: PDFKit.PDFDocument) => void): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4', margin: 50, info: { Title: title } });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    draw(doc);
    doc.end();
  });
}

type Word = (key: keyof typeof words) => string;
type VatSplit = typeof import('./document-orders.ts')['vatSplit'];
type Legal = { name?: string; address?: string; vatNumber?: string; vatRate?: number | null };

/** An amount in the reader's language (pdfkit's standard fonts have no narrow no-break space). */
const localAmount = (lng: 'en' | 'fr' | 'both', currency: string) => (cents: number) =>
  new Intl.NumberFormat(lng === 'fr' ? 'fr-BE' : 'en-GB', { style: 'currency', currency })
    .format(cents / 100)
    .replace(/[\u202f\u00a0]/g, ' ');

/** The seller (the organiser's legal name, address and VAT number) and the buyer of a runner's document. */
function parties(doc: PDFKit.PDFDocument, word: Word, legal: Legal, organisationName: string) {
  doc.fontSize(9).fillColor('#444').text(word('seller'));
  doc
    .fillColor('#000')
    .fontSize(11)
    .text(legal.name || organisationName);
  if (legal.address) doc.fontSize(10).text(legal.address);
  if (legal.vatNumber) doc.fontSize(10).text(`${word('vat')}: ${legal.vatNumber}`);
  doc.moveDown();
}

/** The buyer block of a runner's document: the payer's name and e-mail. */
function billedTo(doc: PDFKit.PDFDocument, word: Word, order: OrderDetail) {
  doc.moveDown().fillColor('#000').fontSize(9).fillColor('#444').text(word('billedTo'));
  doc
    .fillColor('#000')
    .fontSize(11)
    .text(order.payerName || order.payerEmail);
  if (order.payerName) doc.fontSize(10).text(order.payerEmail);
  doc.moveDown();
}

/** A line of a runner's document: its label, its amount right-aligned on the same line. */
const amountRow =
  (doc: PDFKit.PDFDocument, amount: (cents: number) => string) =>
  (label: string, cents: number, size = 10) => {
    const y = doc.y;
    doc.fontSize(size).text(label, 50, y, { width: 360 });
    const after = doc.y;
    doc.text(amount(cents), 420, y, { width: 125, align: 'right' });
    doc.y = Math.max(after, doc.y);
  };

/** Net, VAT and total where the organisation has a VAT rate (amounts VAT included), else "VAT not applicable". */
function vatTotals(
  doc: PDFKit.PDFDocument,
  row: ReturnType<typeof amountRow>,
  word: Word,
  legal: Legal,
  cents: number,
  vatSplit: VatSplit,
) {
  doc.moveDown();
  if (legal.vatRate) {
    const { netCents, vatCents } = vatSplit(cents, legal.vatRate);
    row(word('net'), netCents);
    row(`${word('vat')} ${legal.vatRate}%`, vatCents);
  }
  row(word('total'), cents, 12);
  doc.moveDown(0.5).fontSize(10);
  doc.x = 50;
  if (!legal.vatRate) doc.text(word('vatNotApplicable'));
}

/**
 * A receipt: "paid" with the date once the payment is confirmed, otherwise a pro forma with the
 * transfer instructions (the same document serves as the invoice of a company team).
 */
export async function receiptPdf(order: OrderDetail, vat: string | null): Promise<Buffer> {
  return renderPdf(`${words.receipt.en} ${order.id}`, (doc) => {
    const paid = order.state === 'paid' || order.state === 'refunded';
    doc.fontSize(20).text(say(paid ? 'receipt' : 'proForma'), { align: 'left' });
    doc.moveDown(0.5).fontSize(10).fillColor('#444');
    doc.text(`${order.eventName}`);
    doc.text(`${say('order')} #${order.id} — ${order.createdAt.slice(0, 10)}`);
    doc.moveDown();
    doc
      .fillColor('#000')
      .fontSize(11)
      .text(order.company ? order.organisationName : order.payerName);
    if (order.company && vat) doc.text(`${say('vat')}: ${vat}`);
    doc.text(order.payerEmail);
    doc.moveDown();
    doc.fontSize(10);
    for (const line of order.lines) {
      const y = doc.y;
      doc.text(`${line.participant || '—'} · ${line.raceName}`, 50, y, { width: 380 });
      doc.text(money(line.amountCents, order.currency), 430, y, { width: 115, align: 'right' });
    }
    doc.moveDown();
    const total = doc.y;
    doc.fontSize(12).text(say('total'), 50, total);
    doc.text(money(order.amountCents, order.currency), 430, total, { width: 115, align: 'right' });
    doc.moveDown(1.5).fontSize(10);
    doc.x = 50;
    if (paid) {
      doc.text(
        `${say('paid')}: ${money(order.paidCents, order.currency)} — ${order.paidAt?.slice(0, 10) ?? ''}`,
      );
      if (order.refundedCents) doc.text(`${say('refunded')}: ${money(order.refundedCents, order.currency)}`);
    } else {
      doc.text(`${say('transfer')}: ${order.beneficiary} ${order.iban}`);
      doc.text(`${say('communication')}: ${order.communication}`);
      doc.text(`${say('before')}: ${order.expiresAt.slice(0, 10)}`);
    }
  });
}

const HEADER = [
  'order',
  'deposit',
  'event',
  'team',
  'payer',
  'email',
  'company',
  'state',
  'provider',
  'communication',
  'amount',
  'paid',
  'refunded',
  'currency',
  'created',
  'paid_at',
  'document',
  'number',
  'invoice',
];

/**
 * An amount of the accountant's CSV: always two decimals; the decimal comma in French (the file
 * is `;`-separated, as a French-language Excel reads it, and there `36.30` would be text or a
 * date), the point otherwise. The refund list (for the bank) and XLSX (numbers) keep the point.
 */
export function amountCell(cents: number, lng: 'en' | 'fr'): string {
  const text = (cents / 100).toFixed(2);
  return lng === 'fr' ? text.replace('.', ',') : text;
}

/** The columns of HEADER holding amounts (rowsOf gives them in cents). */
const AMOUNTS = new Set([10, 11, 12]);
/** The columns of HEADER holding times (ISO; date cells in XLSX). */
const DATES = new Set([14, 15]);

/**
 * A row per order (`document` invoice with its number once invoiced), then a row per credit note
 * of its refunds (issue 38): the order's columns, the amount credited negative, `created` the
 * refund's time, `number` the credit note's, `invoice` the invoice it corrects — so the
 * accountant's sum of `amount` over invoices and credit notes is what the organiser kept.
 */
function rowsOf(orders: OrderDetail[]): (string | number)[][] {
  return orders.flatMap((o) => [
    orderRow(o),
    ...o.refunds
      .filter((r) => r.creditNote)
      .map((r) => {
        const row = orderRow(o);
        row[10] = -r.amountCents;
        row[11] = '';
        row[12] = '';
        row[14] = r.createdAt;
        row[15] = '';
        row[16] = 'credit_note';
        row[17] = r.creditNote ?? '';
        row[18] = o.invoice ?? '';
        return row;
      }),
  ]);
}

function orderRow(o: OrderDetail): (string | number)[] {
  return [
    o.id,
    o.depositId ?? '',
    o.eventName,
    o.organisationName,
    o.payerName,
    o.payerEmail,
    o.company ? 'yes' : 'no',
    o.state,
    o.provider,
    o.communication,
    o.amountCents,
    o.paidCents,
    o.refundedCents,
    o.currency,
    o.createdAt,
    o.paidAt ?? '',
    o.invoice ? 'invoice' : '',
    o.invoice ?? '',
    '',
  ];
}

/** A cell safe from formula injection (a leading = + - @ is quoted, OWASP "CSV injection"). */
export function safeCell(v: unknown): string {
  const s = String(v ?? '');
  const guarded = typeof v === 'string' && /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return /[",;\n\r]/.test(guarded) ? `"${guarded.replace(/"/g, '""')}"` : guarded;
}

/** The accountant's CSV: amounts with two decimals, the decimal separator of `lng` (`amountCell`). */
export function ordersCsv(orders: OrderDetail[], lng: 'en' | 'fr' = 'en'): string {
  // An amount is ours (a number written by amountCell): a credit note's leading minus is kept,
  // not taken for a formula; every other cell is guarded.
  const rows = rowsOf(orders).map((row) =>
    row.map((cell, k) =>
      AMOUNTS.has(k) && cell !== '' ? quoted(amountCell(Number(cell), lng)) : safeCell(cell),
    ),
  );
  return `${[HEADER.map(safeCell), ...rows].map((r) => r.join(';')).join('\r\n')}\r\n`;
}

/** A cell quoted when it holds the separator, a quote or a line break (no formula guard). */
const quoted = (s: string) => (/[",;\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

export async function ordersXlsx(orders: OrderDetail[]): Promise<Buffer> {
  const { default: ExcelJS } = await import('exceljs');
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Orders');
  sheet.addRow(HEADER);
  sheet.getRow(1).font = { bold: true };
  for (const row of rowsOf(orders)) {
    // Issue 41: a cell is text or number by its type — a string is never a formula, so it is
    // written as it is (no apostrophe); amounts are numbers, the two times dates.
    sheet.addRow(
      row.map((v, k) =>
        AMOUNTS.has(k) && v !== ''
          ? Number(v) / 100
          : DATES.has(k) && v
            ? new Date(String(v))
            : v === ''
              ? null
              : v,
      ),
    );
  }
  for (const col of [11, 12, 13]) sheet.getColumn(col).numFmt = '0.00';
  for (const k of DATES) sheet.getColumn(k + 1).numFmt = 'yyyy-mm-dd hh:mm';
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** The bank's refund list (one transfer per line). */
export function refundsCsv(
  rows: { id: string; orderId: string; amountCents: number; iban: string; name: string; reason: string }[],
) {
  const header = ['refund', 'order', 'name', 'iban', 'amount', 'communication'];
  const lines = rows.map((r) => [
    r.id,
    r.orderId,
    r.name,
    r.iban,
    amountCell(r.amountCents, 'en'),
    `Refund order ${r.orderId} ${r.reason}`.trim(),
  ]);
  return `${[header, ...lines].map((r) => r.map(safeCell).join(';')).join('\r\n')}\r\n`;
}

/**
 * The invoice of a confirmation document's order (issue 29): the organiser's legal details, the
 * number in the organisation's sequence, the sender billed, the fees (net, VAT and total where
 * the organisation has a VAT rate; amounts are VAT included), and the transfer to make.
 */
export async function invoicePdf(
  order: OrderDetail,
  invoice: {
    number: string;
    issuedAt: string;
    organisationName: string;
    title: string;
    legal: { name?: string; address?: string; vatNumber?: string; vatRate?: number | null };
  },
): Promise<Buffer> {
  const { vatSplit } = await import('./document-orders.ts');
  return renderPdf(`${words.invoice.en} ${invoice.number}`, (doc) => {
    const { legal } = invoice;
    doc.fontSize(11).text(legal.name || invoice.organisationName);
    if (legal.address) doc.fontSize(10).text(legal.address);
    if (legal.vatNumber) doc.fontSize(10).text(`${say('vat')}: ${legal.vatNumber}`);
    doc.moveDown();
    doc.fontSize(20).text(`${say('invoice')} ${invoice.number}`);
    doc.fontSize(10).fillColor('#444');
    doc.text(`${say('date')}: ${invoice.issuedAt.slice(0, 10)} — ${order.eventName}`);
    doc.text(`${say('order')} #${order.id}`);
    doc.moveDown().fillColor('#000').fontSize(11);
    doc.text(`${say('billedTo')}: ${order.organisationName}`);
    if (order.payerName) doc.fontSize(10).text(order.payerName);
    doc.fontSize(10).text(order.payerEmail);
    doc.moveDown();
    const row = (label: string, cents: number, size = 10) => {
      const y = doc.y;
      doc.fontSize(size).text(label, 50, y, { width: 380 });
      doc.text(money(cents, order.currency), 430, y, { width: 115, align: 'right' });
    };
    row(invoice.title || say('registrations'), order.amountCents);
    doc.moveDown();
    if (legal.vatRate) {
      const { netCents, vatCents } = vatSplit(order.amountCents, legal.vatRate);
      row(say('net'), netCents);
      row(`${say('vat')} ${legal.vatRate}%`, vatCents);
    }
    row(say('total'), order.amountCents, 12);
    doc.moveDown(1.5).fontSize(10);
    doc.x = 50;
    const paid = order.state === 'paid' || order.state === 'refunded';
    if (paid) {
      doc.text(
        `${say('paid')}: ${money(order.paidCents, order.currency)} — ${order.paidAt?.slice(0, 10) ?? ''}`,
      );
    } else {
      doc.text(`${say('transfer')}: ${order.beneficiary} ${order.iban}`);
      doc.text(`${say('communication')}: ${order.communication}`);
      doc.text(`${say('due')}: ${order.expiresAt.slice(0, 10)}`);
    }
  });
}

/** One runner of an entries order's invoice: the entry, its discount, its add-ons. */
export interface EntryInvoiceLine {
  runner: string;
  raceName: string;
  entryCents: number;
  discountCents: number;
  discountCode: string | null;
  addOns: { name: string; quantity: number; cents: number }[];
}

/**
 * The invoice of an entries order (issue 38), in the runner's language (`lng`): the organiser
 * (seller: legal name, address, VAT number), the number of the organisation's sequence, the buyer,
 * a line per entry, add-on and discount (or the change paid: a move's difference, a transfer's or a
 * deferral's fee), then net / VAT / total where the organisation set a VAT rate (amounts are VAT
 * included), else "VAT not applicable", and what was paid when.
 */
export async function entriesInvoicePdf(
  order: OrderDetail,
  invoice: {
    number: string;
    issuedAt: string;
    organisationName: string;
    legal: { name?: string; address?: string; vatNumber?: string; vatRate?: number | null };
  },
  lines: { entries: EntryInvoiceLine[]; changes: ('move' | 'transfer' | 'defer')[] },
  lng: 'en' | 'fr',
): Promise<Buffer> {
  const { vatSplit } = await import('./document-orders.ts');
  const word: Word = (key) => words[key][lng];
  const amount = localAmount(lng, order.currency);
  return renderPdf(`${word('invoice')} ${invoice.number}`, (doc) => {
    const { legal } = invoice;
    parties(doc, word, legal, invoice.organisationName);
    doc.fontSize(20).text(`${word('invoice')} ${invoice.number}`);
    doc.fontSize(10).fillColor('#444');
    doc.text(`${word('date')}: ${invoice.issuedAt.slice(0, 10)} — ${order.eventName}`);
    doc.text(`${word('order')} #${order.id}`);
    billedTo(doc, word, order);
    const row = amountRow(doc, amount);
    for (const e of lines.entries) {
      row(`${word('entry')} — ${e.raceName} — ${e.runner}`, e.entryCents);
      for (const a of e.addOns) row(`${word('addOn')} — ${a.name} × ${a.quantity}`, a.cents * a.quantity);
      if (e.discountCents)
        row(`${word('discount')}${e.discountCode ? ` (${e.discountCode})` : ''}`, -e.discountCents);
    }
    const changeWord = { move: 'changeMove', transfer: 'changeTransfer', defer: 'changeDefer' } as const;
    for (const c of lines.changes) row(word(changeWord[c]), order.amountCents);
    vatTotals(doc, row, word, legal, order.amountCents, vatSplit);
    doc.moveDown();
    if (order.state === 'paid' || order.state === 'refunded')
      doc.text(`${word('paid')}: ${amount(order.paidCents)} — ${order.paidAt?.slice(0, 10) ?? ''}`);
    if (order.refundedCents) doc.text(`${word('refunded')}: ${amount(order.refundedCents)}`);
  });
}

/**
 * A credit note (avoir, issue 38) of a refund of an invoiced order, in the runner's language
 * (`lng`; side by side for an order without one): the organiser (seller), the credit note's
 * number in the organisation's one sequence, the invoice it refers to (number and date), the buyer,
 * the refund's line (why), net / VAT / total credited where the organisation has a VAT rate, else
 * "VAT not applicable". Amounts are what is credited (positive: the document's title says it).
 */
export async function creditNotePdf(
  order: OrderDetail,
  note: {
    number: string;
    invoiceNumber: string;
    invoiceIssuedAt: string | null;
    issuedAt: string;
    amountCents: number;
    reason: string;
    organisationName: string;
    legal: { name?: string; address?: string; vatNumber?: string; vatRate?: number | null };
  },
  lng: 'en' | 'fr' | 'both',
): Promise<Buffer> {
  const { vatSplit } = await import('./document-orders.ts');
  const word: Word = (key) => (lng === 'both' ? say(key) : words[key][lng]);
  const amount = localAmount(lng, order.currency);
  const reasonKey = `reason${note.reason}` as keyof typeof words;
  const why = reasonKey in words ? word(reasonKey) : note.reason;
  return renderPdf(`${word('creditNote')} ${note.number}`, (doc) => {
    const { legal } = note;
    parties(doc, word, legal, note.organisationName);
    doc.fontSize(20).text(`${word('creditNote')} ${note.number}`);
    doc.fontSize(10).fillColor('#444');
    doc.text(`${word('date')}: ${note.issuedAt.slice(0, 10)} — ${order.eventName}`);
    doc.text(
      `${word('ofInvoice')} ${note.invoiceNumber}${note.invoiceIssuedAt ? ` (${note.invoiceIssuedAt.slice(0, 10)})` : ''}`,
    );
    doc.text(`${word('order')} #${order.id}`);
    billedTo(doc, word, order);
    const row = amountRow(doc, amount);
    row(`${word('refund')} — ${why}`, note.amountCents);
    vatTotals(doc, row, word, legal, note.amountCents, vatSplit);
  });
}
