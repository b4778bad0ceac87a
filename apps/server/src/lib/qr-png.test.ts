import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { qrPng } from './qr-png.ts';

describe('qrPng', () => {
  it('writes a PNG that a QR reader decodes to the text, at most the width asked', () => {
    for (const text of ['E7KQ2M9X', 'https://tempora.example/#/entries/entry/AB12CD34', 'é']) {
      const png = PNG.sync.read(qrPng(text, { width: 300, margin: 2 }));
      expect(png.width).toBe(png.height);
      expect(png.width).toBeLessThanOrEqual(300);
      expect(png.width).toBeGreaterThan(200);
      const decoded = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
      expect(decoded?.data).toBe(text);
    }
  });

  it('keeps a white quiet zone of `margin` modules around the symbol', () => {
    const png = PNG.sync.read(qrPng('E7KQ2M9X', { width: 290, margin: 4 }));
    // Top-left pixel and the whole first row are white; the symbol's finder starts inside.
    const white = (x: number, y: number) => png.data[(y * png.width + x) * 4] === 255;
    for (let x = 0; x < png.width; x++) expect(white(x, 0)).toBe(true);
    const scale = png.width / 29; // version 1 (21 modules) + 2 × 4
    expect(Number.isInteger(scale)).toBe(true);
    expect(white(4 * scale, 4 * scale)).toBe(false);
    expect(white(4 * scale - 1, 4 * scale - 1)).toBe(true);
  });
});
