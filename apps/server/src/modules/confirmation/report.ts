import type { DocumentReport, DocumentSummary } from '@tempora/contracts';
import ExcelJS from 'exceljs';
import PDFDocument from 'pdfkit';
import type { DocumentRecord, RaceRecord, RowRecord } from './repository.ts';
import { unitPrice } from './service.ts';
import { raceOfRow } from './validate.ts';

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
  for (const r of raceRows) r.feesCents = r.confirmed * r.unitPriceCents;
  return {
    document: summary,
    byRace: raceRows,
    byCategory: [...byCategory.values()].sort(
      (a, b) => a.raceName.localeCompare(b.raceName) || a.category.localeCompare(b.category),
    ),
    errors,
    totals: {
      confirmed: raceRows.reduce((s, r) => s + r.confirmed, 0),
      pending: raceRows.reduce((s, r) => s + r.pending, 0),
      rejected: raceRows.reduce((s, r) => s + r.rejected, 0),
      feesCents: raceRows.reduce((s, r) => s + r.feesCents, 0),
    },
  };
}

const money = (cents: number) => (cents / 100).toFixed(2);

/** The report as an XLSX workbook: Summary, Categories and Errors sheets. */
export async function reportXlsx(report: DocumentReport): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const d = report.document;
  const summary = wb.addWorksheet('Summary');
  summary.addRows([
    ['Document', d.title],
    ['Event', d.eventName],
    ['Sender', `${d.senderName} (${d.senderKind})`],
    ['Status', d.status],
    ['Received', d.receivedOn],
    [],
    ['Race', 'Confirmed', 'Pending', 'Rejected', 'Unit price (EUR)', 'Fees (EUR)'],
    ...report.byRace.map((r) => [
      r.raceName,
      r.confirmed,
      r.pending,
      r.rejected,
      Number(money(r.unitPriceCents)),
      Number(money(r.feesCents)),
    ]),
    [
      'Total',
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
  const categories = wb.addWorksheet('Categories');
  categories.addRows([
    ['Race', 'Category', 'Confirmed'],
    ...report.byCategory.map((c) => [c.raceName, c.category, c.confirmed]),
  ]);
  categories.getRow(1).font = { bold: true };
  const errors = wb.addWorksheet('Errors');
  errors.addRows([
    ['Row', 'Name', 'Issues'],
    ...report.errors.map((e) => [
      e.position,
      e.name,
      e.issues.map((i) => `${i.field}: ${i.code}`).join(', '),
    ]),
  ]);
  errors.getRow(1).font = { bold: true };
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** The report as a PDF (pdfkit, built-in Helvetica). */
export function reportPdf(report: DocumentReport): Promise<Buffer> {
  const pdf = new PDFDocument({ size: 'A4', margin: 50, info: { Title: report.document.title } });
  const chunks: Buffer[] = [];
  pdf.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => pdf.on('end', () => resolve(Buffer.concat(chunks))));
  const d = report.document;
  pdf.fontSize(18).text(d.title);
  pdf
    .fontSize(10)
    .text(`${d.eventName} — ${d.senderName} (${d.senderKind}) — ${d.status} — received ${d.receivedOn}`);
  pdf.moveDown();
  const table = (header: string[], rows: (string | number)[][], widths: number[]) => {
    const line = (cells: (string | number)[], bold: boolean) => {
      const y = pdf.y;
      let x = 50;
      pdf.font(bold ? 'Helvetica-Bold' : 'Helvetica');
      cells.forEach((cell, k) => {
        pdf.text(String(cell), x, y, { width: widths[k]! - 6, lineBreak: false, ellipsis: true });
        x += widths[k]!;
      });
      pdf.moveDown(0.4);
      pdf.x = 50;
    };
    line(header, true);
    for (const row of rows) line(row, false);
    pdf.moveDown();
  };
  pdf.fontSize(13).font('Helvetica-Bold').text('By race').fontSize(10);
  table(
    ['Race', 'Confirmed', 'Pending', 'Rejected', 'Price', 'Fees'],
    [
      ...report.byRace.map((r) => [
        r.raceName,
        r.confirmed,
        r.pending,
        r.rejected,
        money(r.unitPriceCents),
        money(r.feesCents),
      ]),
      [
        'Total',
        report.totals.confirmed,
        report.totals.pending,
        report.totals.rejected,
        '',
        money(report.totals.feesCents),
      ],
    ],
    [170, 65, 65, 65, 60, 70],
  );
  pdf.fontSize(13).font('Helvetica-Bold').text('By category').fontSize(10);
  table(
    ['Race', 'Category', 'Confirmed'],
    report.byCategory.map((c) => [c.raceName, c.category, c.confirmed]),
    [200, 150, 80],
  );
  pdf.fontSize(13).font('Helvetica-Bold').text(`Rows in error (${report.errors.length})`).fontSize(10);
  table(
    ['Row', 'Name', 'Issues'],
    report.errors
      .slice(0, 500)
      .map((e) => [e.position, e.name, e.issues.map((i) => `${i.field}: ${i.code}`).join(', ')]),
    [50, 160, 285],
  );
  pdf.end();
  return done;
}
