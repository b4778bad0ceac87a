import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CertificateFont } from '@tempora/contracts';

/**
 * The fonts embedded in every PDF: DejaVu (Bitstream Vera licence, assets/fonts/LICENSE-DejaVu.txt),
 * which covers Latin accents and more — PDF's built-in Helvetica has no glyph for `ő` or `ł`.
 * Condensed sans for lists (more columns fit a page), serif for certificates.
 */
const HERE = path.dirname(fileURLToPath(import.meta.url));
/** `apps/server/assets/fonts`, from the sources (src/lib) or the bundle (dist/server.mjs). */
const DIR =
  [path.resolve(HERE, '../../assets/fonts'), path.resolve(HERE, '../assets/fonts')].find((dir) =>
    fs.existsSync(path.join(dir, 'DejaVuSansCondensed.ttf')),
  ) ?? path.resolve(HERE, '../../assets/fonts');

const FILES: Record<CertificateFont, string> = {
  sans: 'DejaVuSansCondensed.ttf',
  sansBold: 'DejaVuSansCondensed-Bold.ttf',
  serif: 'DejaVuSerif.ttf',
  serifBold: 'DejaVuSerif-Bold.ttf',
};

const loaded = new Map<CertificateFont, Buffer>();

/** The TTF bytes of a font (read once). */
export function fontBytes(font: CertificateFont): Buffer {
  let bytes = loaded.get(font);
  if (!bytes) {
    bytes = fs.readFileSync(path.join(DIR, FILES[font]));
    loaded.set(font, bytes);
  }
  return bytes;
}

/** Registers the fonts on a pdfkit document under their names. */
export function registerFonts(doc: PDFKit.PDFDocument, fonts: readonly CertificateFont[]): void {
  for (const font of fonts) doc.registerFont(font, fontBytes(font));
}
