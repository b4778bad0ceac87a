import type { CertificateField, CertificateTemplate } from '@tempora/contracts';
import { formatDuration } from '@tempora/domain';
import type PDFKitDocument from 'pdfkit';
import { lazyRequire } from '../../lib/lazy-require.ts';

const pdfkit = lazyRequire<typeof PDFKitDocument>('pdfkit');

import QRCode from 'qrcode';
import { registerFonts } from '../../lib/pdf-fonts.ts';

/** What a certificate shows of one finisher. */
export interface CertificateData {
  eventName: string;
  raceName: string;
  /** The race date formatted in the certificate's language. */
  date: string;
  name: string;
  bib: string;
  category: string;
  club: string;
  netMs: number;
  gunMs: number;
  rankOverall: number | null;
  rankGender: number | null;
  rankCategory: number | null;
  finishers: { overall: number; gender: number; category: number };
  pace: string;
  splits: { name: string; netMs: number | null }[];
  verifyUrl: string;
  /**
   * "Corrected on …: …" lines of the race's official results (issue 43), newest first, in the
   * certificate's language and the event's zone: printed at the page's foot, so a certificate
   * re-issued after a correction says so.
   */
  corrections?: string[];
}

const L = (en: string, fr: string) => ({ en, fr });
const field = (f: Partial<CertificateField> & Pick<CertificateField, 'kind' | 'y'>): CertificateField => ({
  label: L('', ''),
  x: 20,
  width: 257,
  size: 12,
  font: 'sans',
  align: 'center',
  color: '#000000',
  ...f,
});

/** The template an event starts with (A4 landscape, 297 × 210 mm). */
export function defaultTemplate(): CertificateTemplate {
  return {
    orientation: 'landscape',
    fields: [
      field({ kind: 'eventName', y: 22, size: 22, font: 'serifBold', color: '#1d5f86' }),
      field({ kind: 'text', y: 40, size: 14, label: L('Finisher certificate', 'Diplôme de finisher') }),
      field({ kind: 'name', y: 62, size: 34, font: 'serifBold' }),
      field({ kind: 'raceName', y: 84, size: 14 }),
      field({ kind: 'date', y: 93, size: 11, color: '#444444' }),
      field({ kind: 'netTime', y: 108, size: 24, font: 'sansBold', label: L('Net time', 'Temps net') }),
      field({ kind: 'gunTime', y: 122, size: 11, label: L('Gun time', 'Temps officiel'), color: '#444444' }),
      field({ kind: 'rankOverall', x: 20, width: 86, y: 138, size: 12, label: L('Overall', 'Scratch') }),
      field({ kind: 'rankGender', x: 106, width: 86, y: 138, size: 12, label: L('Gender', 'Sexe') }),
      field({ kind: 'rankCategory', x: 192, width: 86, y: 138, size: 12, label: L('Category', 'Catégorie') }),
      field({ kind: 'pace', y: 152, size: 11, label: L('Pace', 'Allure'), color: '#444444' }),
      field({ kind: 'bib', x: 20, width: 80, y: 182, size: 10, align: 'left', label: L('Bib', 'Dossard') }),
      field({ kind: 'qr', x: 252, width: 30, y: 165 }),
    ],
  };
}

const MM = 72 / 25.4;

/** The value a field shows, with its label. */
export function fieldText(f: CertificateField, data: CertificateData, lng: 'en' | 'fr'): string {
  const label = f.label[lng].trim();
  const rank = (r: number | null, of: number) =>
    r ? `${r.toLocaleString(lng)} / ${of.toLocaleString(lng)}` : '';
  const values: Record<Exclude<CertificateField['kind'], 'qr' | 'splits'>, string> = {
    eventName: data.eventName,
    raceName: data.raceName,
    date: data.date,
    name: data.name,
    bib: data.bib,
    category: data.category,
    club: data.club,
    netTime: formatDuration(data.netMs),
    gunTime: formatDuration(data.gunMs),
    rankOverall: rank(data.rankOverall, data.finishers.overall),
    rankGender: rank(data.rankGender, data.finishers.gender),
    // The category named: "1 / 5" alone does not say among whom.
    rankCategory: data.category
      ? `${rank(data.rankCategory, data.finishers.category)} (${data.category})`.replace(/^ \(.*\)$/, '')
      : rank(data.rankCategory, data.finishers.category),
    pace: data.pace ? `${data.pace} /km` : '',
    text: '',
  };
  if (f.kind === 'text') return label;
  if (f.kind === 'qr' || f.kind === 'splits') return label;
  const value = values[f.kind];
  if (!value) return '';
  // French typography puts a (narrow) space before the colon.
  return label ? `${label}${lng === 'fr' ? '\u202f:' : ':'} ${value}` : value;
}

/** Draws a QR code as vector squares (sharp at any zoom, read by phones from paper). */
function drawQr(doc: PDFKit.PDFDocument, text: string, x: number, y: number, side: number) {
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const size = qr.modules.size;
  const quiet = 2;
  const cell = side / (size + 2 * quiet);
  doc.rect(x, y, side, side).fill('#ffffff');
  for (let r = 0; r < size; r++) {
    for (let c = 0; c < size; c++) {
      if (qr.modules.data[r * size + c]) doc.rect(x + (c + quiet) * cell, y + (r + quiet) * cell, cell, cell);
    }
  }
  doc.fill('#000000');
}

/**
 * A finisher certificate: one A4 page from the organiser's template (background image stretched
 * to the page, then every field at its position in mm), fonts embedded (accents), the QR code of
 * the verification URL. Returns the PDF bytes.
 */
export async function renderCertificate(
  template: CertificateTemplate,
  background: Buffer | null,
  data: CertificateData,
  lng: 'en' | 'fr',
): Promise<Buffer> {
  const landscape = template.orientation === 'landscape';
  const doc = new (pdfkit())({
    size: 'A4',
    layout: landscape ? 'landscape' : 'portrait',
    margin: 0,
    info: { Title: `${data.eventName} — ${data.name}`, Creator: 'Tempora', Producer: 'Tempora' },
  });
  registerFonts(doc, ['sans', 'sansBold', 'serif', 'serifBold']);
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  const width = doc.page.width;
  const height = doc.page.height;
  if (background) doc.image(background, 0, 0, { width, height });
  for (const f of template.fields) {
    const x = f.x * MM;
    const y = f.y * MM;
    const w = f.width * MM;
    if (f.kind === 'qr') {
      drawQr(doc, data.verifyUrl, x, y, w);
      continue;
    }
    doc.fillColor(f.color).font(f.font).fontSize(f.size);
    if (f.kind === 'splits') {
      const lines = data.splits
        .filter((s) => s.netMs !== null)
        .map((s) => `${s.name}  ${formatDuration(s.netMs)}`);
      const text = [fieldText(f, data, lng), ...lines].filter(Boolean).join('\n');
      doc.text(text, x, y, { width: w, align: f.align });
      continue;
    }
    const text = fieldText(f, data, lng);
    if (text) doc.text(text, x, y, { width: w, align: f.align, lineBreak: true, height: f.size * 2.6 });
  }
  if (data.corrections?.length) {
    // The last three, above the bottom margin, small and grey: never over the template's fields.
    const lines = data.corrections.slice(0, 3);
    doc.fillColor('#444444').font('sans').fontSize(7);
    const y = height - 8 * MM - lines.length * 9;
    doc.text(lines.join('\n'), 10 * MM, y, { width: width - 20 * MM, align: 'left', lineBreak: true });
  }
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}
