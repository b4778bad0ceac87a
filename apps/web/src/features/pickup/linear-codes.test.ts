import bwipjs from 'bwip-js/generic';
import { describe, expect, it } from 'vitest';
import { readLinearCode } from './linear-codes.ts';

/** A frame (grey levels) showing `text` as a printed barcode of `bcid`, as a camera would: grey
 * paper, dark ink, some noise, off centre. */
function frame(bcid: string, text: string, { width = 640, height = 480, module = 3, upright = false } = {}) {
  const [symbol] = bwipjs.raw({ bcid, text }) as unknown as { sbs: number[] }[];
  const luma = new Uint8ClampedArray(width * height);
  let seed = 7;
  const noise = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return (seed % 31) - 15;
  };
  const bars: boolean[] = [];
  symbol!.sbs.forEach((w, k) => {
    for (let i = 0; i < w * module; i++) bars.push(k % 2 === 0);
  });
  const along = upright ? height : width;
  const start = Math.floor((along - bars.length) / 2) + 9;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const at = (upright ? y : x) - start;
      const across = upright ? x : y;
      const ink =
        at >= 0 && at < bars.length && bars[at] && Math.abs(across - (upright ? width : height) / 2) < 90;
      luma[y * width + x] = (ink ? 40 : 200) + noise();
    }
  return { luma, width, height };
}

describe('1D barcodes of chips and bibs read from a camera frame', () => {
  it.each([
    ['code128', 'CHIP-EN-1'],
    ['code128', '000123456789'],
    ['code39', 'CHIP42'],
    ['ean13', '4006381333931'],
    ['ean8', '96385074'],
    ['interleaved2of5', '12345678'],
  ])('%s %s', (bcid, text) => {
    const { luma, width, height } = frame(bcid, text);
    expect(readLinearCode(luma, width, height)).toBe(text);
  });

  it('reads a code held upright (the frame turned a quarter)', () => {
    const { luma, width, height } = frame('code128', 'UPRIGHT-7', { upright: true, module: 2 });
    expect(readLinearCode(luma, width, height)).toBe('UPRIGHT-7');
  });

  it('finds nothing in a blank frame or in noise', () => {
    const blank = new Uint8ClampedArray(320 * 240).fill(200);
    expect(readLinearCode(blank, 320, 240)).toBeNull();
    const noisy = blank.map((_, i) => ((i * 7919) % 255) as number);
    expect(readLinearCode(noisy, 320, 240)).toBeNull();
  });
});
