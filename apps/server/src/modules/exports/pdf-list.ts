import { interpolate, sharedLocales } from '@tempora/contracts/locales';
import type PDFKitDocument from 'pdfkit';
import { lazyRequire } from '../../lib/lazy-require.ts';

const pdfkit = lazyRequire<typeof PDFKitDocument>('pdfkit');

import { registerFonts } from '../../lib/pdf-fonts.ts';
import type { TextTable } from './table-text.ts';

/** What a printed list says about itself (page header). */
export interface ListMeta {
  eventName: string;
  /** The event's branding colour (a band on every page), `#rrggbb`. */
  color: string;
  tagline: string;
  place: string;
  raceName: string;
  /** The race's date, already formatted in the list's language. */
  date: string;
  /** The event's IANA time zone: the "printed" time is given in it. */
  timeZone: string;
  lng: 'en' | 'fr';
  /** The event's logo as PNG (top left of every page), or null. */
  logo?: Uint8Array | null;
}

/** A section: all rows, or one category's. */
export interface ListSection {
  heading: string | null;
  rows: string[][];
}

const MARGIN = 30;
const FONT_SIZE = 7.5;
const ROW_HEIGHT = 11;
const HEADER_HEIGHT = 58;
const FOOTER_HEIGHT = 18;
/** The logo's height in the page header, in points (it keeps its proportions, at most 3× as wide). */
const LOGO_HEIGHT = 40;
const PAD = 4;
/** Rows drawn between two turns of the event loop. */
const ROWS_PER_TURN = 8;
/** A4 in points. */
const A4 = { w: 595.28, h: 841.89 };

/** The logo opened once by the document, with its width at the header's height; null if unreadable. */
function logoOf(doc: PDFKit.PDFDocument, png: Uint8Array): { image: Buffer; width: number } | null {
  try {
    // A worker receives the Buffer as a plain Uint8Array (structured clone): pdfkit wants a Buffer.
    const bytes = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
    const opened = (
      doc as unknown as { openImage(src: Buffer): { width: number; height: number } }
    ).openImage(bytes);
    // pdfkit's `image()` takes the opened image too (its types only name the sources).
    return {
      image: opened as unknown as Buffer,
      width: Math.min(3 * LOGO_HEIGHT, (opened.width / opened.height) * LOGO_HEIGHT),
    };
  } catch {
    return null;
  }
}

/** Widths of strings at the list's size from per-character advances (kerning is noise here). */
function measurer(doc: PDFKit.PDFDocument, font: string) {
  const cache = new Map<string, number>();
  doc.font(font).fontSize(FONT_SIZE);
  return (s: string): number => {
    let w = 0;
    for (const ch of s) {
      let cw = cache.get(ch);
      if (cw === undefined) {
        cw = doc.font(font).widthOfString(ch);
        cache.set(ch, cw);
      }
      w += cw;
    }
    return w;
  };
}

/** The layout of a list: page size, column widths (fitted), rows per page. */
export interface ListLayout {
  landscape: boolean;
  widths: number[];
  perPage: number;
}

/**
 * Column widths: each column's natural width (its header or its longest cell among a sample, bold
 * where the column is bold) plus padding. Portrait when they fit, landscape otherwise (or as
 * asked); when they fit neither, the wide left-aligned text columns (names, clubs) shrink and
 * their cells are cut with an ellipsis.
 */
export function layoutList(
  doc: PDFKit.PDFDocument,
  table: TextTable,
  orientation: 'auto' | 'portrait' | 'landscape',
): ListLayout {
  const regular = measurer(doc, 'sans');
  const bold = measurer(doc, 'sansBold');
  const sample = table.rows.length > 3000 ? table.rows.filter((_, k) => k % 7 === 0) : table.rows;
  const natural = table.headers.map((h, c) => {
    const m = table.bold[c] ? bold : regular;
    let w = bold(h);
    for (const row of sample) w = Math.max(w, m(row[c] ?? ''));
    return Math.ceil(w + 2 * PAD);
  });
  const total = natural.reduce((a, b) => a + b, 0);
  const portraitWidth = A4.w - 2 * MARGIN;
  const landscape = orientation === 'landscape' || (orientation === 'auto' && total > portraitWidth);
  const available = (landscape ? A4.h : A4.w) - 2 * MARGIN;
  const widths = [...natural];
  let excess = total - available;
  if (excess > 0) {
    // Shrink the widest left-aligned columns first, never below 40 pt.
    const shrinkable = widths
      .map((w, c) => ({ w, c }))
      .filter(({ c }) => table.aligns[c] === 'left')
      .sort((a, b) => b.w - a.w);
    for (const { c } of shrinkable) {
      if (excess <= 0) break;
      const cut = Math.min(excess, widths[c]! - 40);
      if (cut > 0) {
        widths[c]! -= cut;
        excess -= cut;
      }
    }
    if (excess > 0) {
      const scale = available / widths.reduce((a, b) => a + b, 0);
      for (let c = 0; c < widths.length; c++) widths[c] = widths[c]! * scale;
    }
  } else {
    // Spread the spare width over the left-aligned text columns, in proportion (names breathe).
    const left = widths.map((_, c) => c).filter((c) => table.aligns[c] === 'left');
    const leftWidth = left.reduce((sum, c) => sum + widths[c]!, 0);
    for (const c of left) widths[c]! += (-excess * widths[c]!) / Math.max(1, leftWidth);
  }
  const height = landscape ? A4.w : A4.h;
  const perPage = Math.floor(
    (height - 2 * MARGIN - HEADER_HEIGHT - FOOTER_HEIGHT - ROW_HEIGHT * 2) / ROW_HEIGHT,
  );
  return { landscape, widths, perPage };
}

/** Pages a list takes: each section starts on a page of its own. */
export function pageCount(sections: readonly ListSection[], perPage: number): number {
  return sections.reduce((n, s) => n + Math.max(1, Math.ceil(s.rows.length / perPage)), 0);
}

/** pdfkit's embedded font, as far as `plainLayout` touches it (internal API, pdfkit 0.17). */
interface EmbeddedFontInternals {
  font: { glyphForCodePoint(cp: number): { advanceWidth: number } };
  scale: number;
  layoutCached(text: string): unknown;
}

/**
 * Lays text out glyph by glyph from a per-character cache instead of fontkit's OpenType shaping
 * (ligatures, kerning): a result list has no use for them, and shaping every cell of a
 * 26,000-row list cost most of its time and garbage. pdfkit still subsets and embeds the font and
 * writes the ToUnicode map, so the text stays searchable and extractable.
 */
function plainLayout(doc: PDFKit.PDFDocument, fontName: string) {
  doc.font(fontName);
  const font = (doc as unknown as { _font: EmbeddedFontInternals })._font;
  const glyphs = new Map<string, { glyph: { advanceWidth: number }; advance: number }>();
  font.layoutCached = (text: string) => {
    const run = { glyphs: [] as unknown[], positions: [] as unknown[], advanceWidth: 0 };
    for (const ch of text) {
      let g = glyphs.get(ch);
      if (!g) {
        const glyph = font.font.glyphForCodePoint(ch.codePointAt(0)!);
        g = { glyph, advance: glyph.advanceWidth * font.scale };
        glyphs.set(ch, g);
      }
      run.glyphs.push(g.glyph);
      run.positions.push({
        xAdvance: g.advance,
        yAdvance: 0,
        xOffset: 0,
        yOffset: 0,
        advanceWidth: g.advance,
      });
      run.advanceWidth += g.advance;
    }
    return run;
  };
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A printable result list as a pdfkit document (a readable stream): branding band, event, title,
 * race and date on every page, column headers repeated, zebra rows, "Page n of N" (N is known
 * beforehand: rows per page are fixed), one section per category when asked. Rows are drawn a
 * few at a time with a turn of the event loop between them, so a 45,000-row list never holds the
 * server for more than a few milliseconds, and pages are sent as they are made.
 */
export function renderList(
  table: TextTable,
  sections: readonly ListSection[],
  meta: ListMeta,
  orientation: 'auto' | 'portrait' | 'landscape',
): { doc: PDFKit.PDFDocument; done: Promise<void> } {
  const doc = new (pdfkit())({
    size: 'A4',
    autoFirstPage: false,
    margin: MARGIN,
    info: { Title: `${meta.eventName} — ${table.title}`, Creator: 'Tempora', Producer: 'Tempora' },
  });
  registerFonts(doc, ['sans', 'sansBold']);
  plainLayout(doc, 'sans');
  plainLayout(doc, 'sansBold');
  const layout = layoutList(doc, table, orientation);
  const total = pageCount(sections, layout.perPage);
  const texts = sharedLocales[meta.lng].printing;
  const regular = measurer(doc, 'sans');
  const bold = measurer(doc, 'sansBold');
  const fit = (s: string, width: number, isBold: boolean) => {
    const m = isBold ? bold : regular;
    if (m(s) <= width) return s;
    let cut = s;
    while (cut.length > 1 && m(`${cut}…`) > width) cut = cut.slice(0, -1);
    return `${cut}…`;
  };
  const pageWidth = layout.landscape ? A4.h : A4.w;
  // The logo is embedded once (pdfkit reuses the image object on every page).
  const logo = meta.logo ? logoOf(doc, meta.logo) : null;
  const pageHeight = layout.landscape ? A4.w : A4.h;
  const printed = new Intl.DateTimeFormat(meta.lng === 'fr' ? 'fr-BE' : 'en-GB', {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: meta.timeZone,
  }).format(new Date());

  function cells(row: readonly string[], y: number, boldRow: boolean) {
    let x = MARGIN;
    for (let c = 0; c < row.length; c++) {
      const w = layout.widths[c]!;
      const isBold = boldRow || table.bold[c]!;
      const text = fit(row[c] ?? '', w - 2 * PAD, isBold);
      if (text) {
        const tw = (isBold ? bold : regular)(text);
        const align = table.aligns[c];
        const tx = align === 'right' ? x + w - PAD - tw : align === 'center' ? x + (w - tw) / 2 : x + PAD;
        doc.font(isBold ? 'sansBold' : 'sans').text(text, tx, y + 2, { lineBreak: false });
      }
      x += w;
    }
  }

  async function page(n: number, heading: string | null, rows: readonly string[][]) {
    doc.addPage({ size: 'A4', layout: layout.landscape ? 'landscape' : 'portrait', margin: MARGIN });
    doc.rect(0, 0, pageWidth, 8).fill(meta.color);
    // The logo at the top left, the texts of the header beside it.
    const left = logo ? MARGIN + logo.width + 8 : MARGIN;
    if (logo) doc.image(logo.image, MARGIN, MARGIN - 8, { fit: [logo.width, LOGO_HEIGHT] });
    doc.fillColor('#000000').font('sansBold').fontSize(13);
    doc.text(meta.eventName, left, MARGIN - 6, { lineBreak: false });
    doc.font('sans').fontSize(8).fillColor('#444444');
    const right = [meta.raceName, meta.date, meta.place].filter(Boolean).join(' · ');
    doc.text(right, pageWidth - MARGIN - doc.widthOfString(right), MARGIN - 2, { lineBreak: false });
    doc.font('sansBold').fontSize(10.5).fillColor('#000000');
    const title = heading ? `${table.title} — ${heading}` : table.title;
    doc.text(title, left, MARGIN + 13, { lineBreak: false });
    if (meta.tagline) {
      doc.font('sans').fontSize(8).fillColor('#444444');
      doc.text(meta.tagline, left, MARGIN + 28, { lineBreak: false });
    }
    let y = MARGIN + HEADER_HEIGHT - 14;
    doc.fontSize(FONT_SIZE);
    doc.rect(MARGIN, y, pageWidth - 2 * MARGIN, ROW_HEIGHT + 2).fill('#e3e8ee');
    doc.fillColor('#000000');
    cells(table.headers, y + 1, true);
    y += ROW_HEIGHT + 3;
    for (let k = 0; k < rows.length; k++) {
      if (k % 2 === 1) {
        doc.rect(MARGIN, y, pageWidth - 2 * MARGIN, ROW_HEIGHT).fill('#f4f6f8');
        doc.fillColor('#000000');
      }
      cells(rows[k]!, y, false);
      y += ROW_HEIGHT;
      // A row costs ≈ 0.5 ms (font shaping of every cell): let other requests in every few rows.
      if (k % ROWS_PER_TURN === ROWS_PER_TURN - 1) await yieldToLoop();
    }
    doc.font('sans').fontSize(7).fillColor('#555555');
    const footY = pageHeight - MARGIN - 4;
    doc.text(`Tempora · ${texts.printed} ${printed}`, MARGIN, footY, { lineBreak: false });
    const label = interpolate(texts.page, { n, total });
    doc.text(label, pageWidth - MARGIN - doc.widthOfString(label), footY, { lineBreak: false });
    doc.fillColor('#000000');
  }

  const done = (async () => {
    let n = 0;
    for (const section of sections) {
      const chunks = Math.max(1, Math.ceil(section.rows.length / layout.perPage));
      for (let k = 0; k < chunks; k++) {
        await page(++n, section.heading, section.rows.slice(k * layout.perPage, (k + 1) * layout.perPage));
      }
    }
    doc.end();
  })();
  done.catch((error: Error) => doc.destroy(error));
  return { doc, done };
}
