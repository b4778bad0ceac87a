import {
  confirmationReportWords,
  type DocumentReport,
  type DocumentSummary,
  documentStatusLabels,
  issueLabels,
  type ReportLng,
  rowFieldLabels,
  senderKindLabels,
} from '@tempora/contracts';
import type PDFKitDocument from 'pdfkit';
import { lazyRequire } from '../../lib/lazy-require.ts';

const pdfkit = lazyRequire<typeof PDFKitDocument>('pdfkit');

import { registerFonts } from '../../lib/pdf-fonts.ts';
import { type DocumentRecord, MERGED, type RaceRecord, type RowRecord } from './repository.ts';
import { unitPrice } from './service/shared.ts';
import { raceOfRow } from './validate.ts';

/** A confirmed row that became a runner registered before it (merge): that runner was billed already. */
export const isMerged = (row: Pick<RowRecord, 'decision' | 'reason'>) =>
  row.decision === 'confirmed' && row.reason === MERGED;

/**
 * The report of a document (issue 17): totals by race and by category, fees (the race's price on
 * the document's reception date, for confirmed rows), and the rows still in error.
 */
export function buildReport(
  summary: DocumentSummary,
  doc: DocumentRecord,
  rows: readonly RowRecord[],
  races: readonly RaceRecord[],
): DocumentReport {
  const facts = races.map((r) => ({
    ...r,
    capacity: null,
    bibFrom: null,
    bibTo: null,
    registered: 0,
    takenBibs: new Set<string>(),
  }));
  const byRace = new Map(
    races.map((r) => [
      r.id,
      {
        raceId: r.id,
        raceName: r.name,
        confirmed: 0,
        merged: 0,
        pending: 0,
        rejected: 0,
        unitPriceCents: unitPrice(r.settings.tariffs, doc.receivedOn),
        feesCents: 0,
      },
    ]),
  );
  const byCategory = new Map<string, DocumentReport['byCategory'][number]>();
  const errors: DocumentReport['errors'] = [];
  for (const row of rows) {
    const raceId = row.participantRaceId ?? raceOfRow(row.fields, facts, doc.defaultRaceId).race?.id;
    const entry = raceId ? byRace.get(raceId) : undefined;
    if (entry) entry[row.decision]++;
    if (entry && isMerged(row)) entry.merged++;
    if (row.decision === 'confirmed' && entry) {
      const race = races.find((r) => r.id === entry.raceId)!;
      const category = race.categories.find((c) => c.id === row.category)?.name ?? row.category ?? '—';
      const key = `${entry.raceId}\u0000${category}`;
      const cat = byCategory.get(key) ?? {
        raceId: entry.raceId,
        raceName: entry.raceName,
        category,
        confirmed: 0,
      };
      cat.confirmed++;
      byCategory.set(key, cat);
    }
    if (row.decision === 'pending' && row.issues.some((i) => i.severity === 'error')) {
      errors.push({
        position: row.position,
        name: `${row.fields.firstName ?? ''} ${row.fields.lastName ?? ''}`.trim(),
        issues: row.issues,
      });
    }
  }
  const raceRows = [...byRace.values()].filter((r) => r.confirmed + r.pending + r.rejected > 0);
  for (const r of raceRows) r.feesCents = (r.confirmed - r.merged) * r.unitPriceCents;
  return {
    document: summary,
    byRace: raceRows,
    byCategory: [...byCategory.values()].sort(
      (a, b) => a.raceName.localeCompare(b.raceName) || a.category.localeCompare(b.category),
    ),
    errors,
    totals: {
      confirmed: raceRows.reduce((s, r) => s + r.confirmed, 0),
      merged: raceRows.reduce((s, r) => s + r.merged, 0),
      pending: raceRows.reduce((s, r) => s + r.pending, 0),
      rejected: raceRows.reduce((s, r) => s + r.rejected, 0),
      feesCents: raceRows.reduce((s, r) => s + r.feesCents, 0),
    },
  };
}

const money = (cents: number) => (cents / 100).toFixed(2);

/** Money as the language writes it (`1 234,50` in French, `1,234.50` in English), in euros. */
const moneyText = (cents: number, lng: ReportLng) =>
  new Intl.NumberFormat(lng === 'fr' ? 'fr-FR' : 'en-GB', {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(cents / 100);

/** A `YYYY-MM-DD` date as the language writes it (17/04/2017 in French, 17 Apr 2017 in English). */
const dateText = (isoDate: string, lng: ReportLng) => {
  const at = new Date(`${isoDate}T12:00:00Z`);
  if (Number.isNaN(at.getTime())) return isoDate;
  return new Intl.DateTimeFormat(lng === 'fr' ? 'fr-FR' : 'en-GB', {
    dateStyle: lng === 'fr' ? 'short' : 'medium',
    timeZone: 'UTC',
  }).format(at);
};

/** A row's issues as words: `Birth date: Not a valid date, Row: Already registered`. */
const issuesText = (issues: DocumentReport['errors'][number]['issues'], lng: ReportLng) =>
  issues.map((i) => `${rowFieldLabels[i.field][lng]}: ${issueLabels[i.code][lng]}`).join(', ');

/** The report as an XLSX workbook: Summary, Categories and Errors sheets, in `lng`. */
export async function reportXlsx(report: DocumentReport, lng: ReportLng = 'en'): Promise<Buffer> {
  const w = (key: keyof typeof confirmationReportWords) => confirmationReportWords[key][lng];
  // exceljs loads at the first workbook, not at start (it was ~6 % of a server's start).
  const { default: ExcelJS } = await import('exceljs');
  const wb = new ExcelJS.Workbook();
  const d = report.document;
  const summary = wb.addWorksheet(w('summary'));
  summary.addRows([
    [w('document'), d.title],
    [w('event'), d.eventName],
    [w('sender'), `${d.senderName} (${senderKindLabels[d.senderKind][lng]})`],
    [w('status'), documentStatusLabels[d.status][lng]],
    [w('received'), dateText(d.receivedOn, lng)],
    [],
    [w('race'), w('confirmed'), w('pending'), w('rejected'), w('unitPrice'), w('fees')],
    ...report.byRace.map((r) => [
      r.raceName,
      r.confirmed,
      r.pending,
      r.rejected,
      Number(money(r.unitPriceCents)),
      Number(money(r.feesCents)),
    ]),
    [
      w('total'),
      report.totals.confirmed,
      report.totals.pending,
      report.totals.rejected,
      null,
      Number(money(report.totals.feesCents)),
    ],
  ]);
  summary.getRow(7).font = { bold: true };
  summary.columns.forEach((c) => {
    c.width = 22;
  });
  for (const col of [5, 6]) summary.getColumn(col).numFmt = '#,##0.00';
  const categories = wb.addWorksheet(w('categories'));
  categories.addRows([
    [w('race'), w('category'), w('confirmed')],
    ...report.byCategory.map((c) => [c.raceName, c.category, c.confirmed]),
  ]);
  categories.getRow(1).font = { bold: true };
  const errors = wb.addWorksheet(w('errorsSheet'));
  errors.addRows([
    [w('row'), w('name'), w('issues')],
    ...report.errors.map((e) => [e.position, e.name, issuesText(e.issues, lng)]),
  ]);
  errors.getRow(1).font = { bold: true };
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** The report as a PDF (pdfkit with the embedded DejaVu fonts: every accent of a name prints), in `lng`. */
export function reportPdf(report: DocumentReport, lng: ReportLng = 'en'): Promise<Buffer> {
  const w = (key: keyof typeof confirmationReportWords) => confirmationReportWords[key][lng];
  const pdf = new (pdfkit())({ size: 'A4', margin: 50, info: { Title: report.document.title } });
  registerFonts(pdf, ['sans', 'sansBold']);
  const chunks: Buffer[] = [];
  pdf.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => pdf.on('end', () => resolve(Buffer.concat(chunks))));
  const d = report.document;
  pdf.font('sansBold').fontSize(18).text(d.title);
  pdf
    .font('sans')
    .fontSize(10)
    .text(
      [
        d.eventName,
        `${d.senderName} (${senderKindLabels[d.senderKind][lng]})`,
        documentStatusLabels[d.status][lng],
        `${w('received')} ${dateText(d.receivedOn, lng)}`,
      ].join(' — '),
    );
  pdf.moveDown();
  const table = (header: string[], rows: (string | number)[][], widths: number[], right: number[] = []) => {
    // A cell wraps within its column; the row is as tall as its tallest cell.
    const line = (cells: (string | number)[], bold: boolean) => {
      pdf.font(bold ? 'sansBold' : 'sans');
      const height = Math.max(
        ...cells.map((cell, k) => pdf.heightOfString(String(cell), { width: widths[k]! - 6 })),
      );
      if (pdf.y + height > pdf.page.height - 60) pdf.addPage();
      const y = pdf.y;
      let x = 50;
      cells.forEach((cell, k) => {
        pdf.text(String(cell), x, y, { width: widths[k]! - 6, align: right.includes(k) ? 'right' : 'left' });
        x += widths[k]!;
      });
      pdf.x = 50;
      pdf.y = y + height + 3;
    };
    line(header, true);
    for (const row of rows) line(row, false);
    pdf.moveDown();
  };
  const heading = (text: string) => pdf.fontSize(13).font('sansBold').text(text).fontSize(10);
  heading(w('byRace'));
  table(
    [w('race'), w('confirmed'), w('pending'), w('rejected'), w('unitPrice'), w('fees')],
    [
      ...report.byRace.map((r) => [
        r.raceName,
        r.confirmed,
        r.pending,
        r.rejected,
        moneyText(r.unitPriceCents, lng),
        moneyText(r.feesCents, lng),
      ]),
      [
        w('total'),
        report.totals.confirmed,
        report.totals.pending,
        report.totals.rejected,
        '',
        moneyText(report.totals.feesCents, lng),
      ],
    ],
    [150, 70, 70, 70, 65, 70],
    [1, 2, 3, 4, 5],
  );
  heading(w('byCategory'));
  table(
    [w('race'), w('category'), w('confirmed')],
    report.byCategory.map((c) => [c.raceName, c.category, c.confirmed]),
    [200, 150, 80],
    [2],
  );
  heading(`${w('errors')} (${report.errors.length})`);
  if (report.errors.length === 0) pdf.font('sans').text(w('noErrors'));
  else
    table(
      [w('row'), w('name'), w('issues')],
      report.errors.slice(0, 500).map((e) => [e.position, e.name, issuesText(e.issues, lng)]),
      [45, 150, 300],
    );
  pdf.end();
  return done;
}
