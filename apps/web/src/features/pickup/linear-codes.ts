import BinaryBitmap from '@zxing/library/esm/core/BinaryBitmap';
import type BitArray from '@zxing/library/esm/core/common/BitArray';
import GlobalHistogramBinarizer from '@zxing/library/esm/core/common/GlobalHistogramBinarizer';
import type DecodeHintType from '@zxing/library/esm/core/DecodeHintType';
import NotFoundException from '@zxing/library/esm/core/NotFoundException';
import Code39Reader from '@zxing/library/esm/core/oned/Code39Reader';
import Code128Reader from '@zxing/library/esm/core/oned/Code128Reader';
import EAN8Reader from '@zxing/library/esm/core/oned/EAN8Reader';
import EAN13Reader from '@zxing/library/esm/core/oned/EAN13Reader';
import ITFReader from '@zxing/library/esm/core/oned/ITFReader';
import OneDReader from '@zxing/library/esm/core/oned/OneDReader';
import type Result from '@zxing/library/esm/core/Result';
import RGBLuminanceSource from '@zxing/library/esm/core/RGBLuminanceSource';

/**
 * The printed 1D barcodes of chips and bibs (issue 39) read from a camera frame where the browser
 * has no `BarcodeDetector` (desktop Chromium, Firefox): Code 128, Code 39, EAN-13, EAN-8 and ITF,
 * with ZXing's readers (`@zxing/library`, maintained, Apache-2.0). Only these readers are imported
 * (about 17 KB gzipped, not the library's 110 KB index), in a chunk the pickup page loads when the
 * camera first looks for a chip. Rows across the middle of the frame are read both ways (a code
 * upside down), then the frame turned a quarter (a code held upright).
 */
class ChipReader extends OneDReader {
  private readonly readers: OneDReader[] = [
    new Code128Reader(),
    new Code39Reader(),
    new EAN13Reader(),
    new EAN8Reader(),
    new ITFReader(),
  ];

  override decodeRow(rowNumber: number, row: BitArray, hints?: Map<DecodeHintType, unknown>): Result {
    for (const reader of this.readers) {
      try {
        return reader.decodeRow(rowNumber, row, hints);
      } catch {
        // not this format on this row
      }
    }
    throw NotFoundException.getNotFoundInstance();
  }
}

const reader = new ChipReader();

function read(luma: Uint8ClampedArray, width: number, height: number): string | null {
  try {
    const source = new RGBLuminanceSource(luma, width, height);
    return reader.decode(new BinaryBitmap(new GlobalHistogramBinarizer(source))).getText() || null;
  } catch {
    return null;
  }
}

/** The grey levels of an RGBA frame (a canvas's ImageData), one byte a pixel. */
export function lumaOf(rgba: Uint8ClampedArray, width: number, height: number): Uint8ClampedArray {
  const luma = new Uint8ClampedArray(width * height);
  for (let i = 0, p = 0; i < luma.length; i++, p += 4)
    luma[i] = (rgba[p]! + 2 * rgba[p + 1]! + rgba[p + 2]!) >> 2;
  return luma;
}

/** The text of a 1D barcode in a frame (grey levels, row by row), or null. */
export function readLinearCode(luma: Uint8ClampedArray, width: number, height: number): string | null {
  const across = read(luma, width, height);
  if (across) return across;
  const turned = new Uint8ClampedArray(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) turned[x * height + (height - 1 - y)] = luma[y * width + x]!;
  return read(turned, height, width);
}
