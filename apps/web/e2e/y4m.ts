import fs from 'node:fs';
import bwipjs from 'bwip-js/generic';
import QRCode from 'qrcode';

const W = 640;
const H = 480;

/** The luma plane of a frame showing `text` as a QR code, black on white, centred. */
function qrFrame(text: string): Buffer {
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const n = qr.modules.size;
  const scale = Math.floor(Math.min(W, H) / (n + 8));
  const left = Math.floor((W - n * scale) / 2);
  const top = Math.floor((H - n * scale) / 2);
  const y = Buffer.alloc(W * H, 235);
  for (let r = 0; r < n; r++)
    for (let c = 0; c < n; c++) {
      if (!qr.modules.get(r, c)) continue;
      for (let dy = 0; dy < scale; dy++)
        y.fill(
          16,
          (top + r * scale + dy) * W + left + c * scale,
          (top + r * scale + dy) * W + left + (c + 1) * scale,
        );
    }
  return y;
}

/**
 * The luma plane of a frame showing `text` as a printed 1D barcode (`bcid`: bwip-js's name,
 * `code128`, `code39`, `ean13`…), rendered by bwip-js: bars 3 pixels a module, 160 high, centred,
 * grey paper and ink as a camera sees them.
 */
function linearFrame(bcid: string, text: string): Buffer {
  const [symbol] = bwipjs.raw({ bcid, text }) as unknown as { sbs: number[] }[];
  if (!symbol) throw new Error(`bwip-js made no ${bcid} of ${text}`);
  const bars: boolean[] = [];
  symbol.sbs.forEach((width, k) => {
    for (let i = 0; i < width * 3; i++) bars.push(k % 2 === 0);
  });
  const left = Math.floor((W - bars.length) / 2);
  if (left < 20) throw new Error(`${text} is too long for a ${W}-pixel frame`);
  const y = Buffer.alloc(W * H, 220);
  for (let row = H / 2 - 80; row < H / 2 + 80; row++)
    bars.forEach((ink, x) => {
      if (ink) y[row * W + left + x] = 30;
    });
  return y;
}

/** What a frame shows: a QR code, or a 1D barcode (`{ bcid: 'code128', text }`). */
export type CameraCode = string | { bcid: string; text: string };

/**
 * A Y4M video (what Chromium's fake camera reads: `--use-file-for-fake-video-capture`) showing each
 * code (a text as a QR code, or a 1D barcode) for `framesEach` frames in turn, at 10 frames a
 * second; Chromium loops it.
 */
export function writeQrVideo(file: string, codes: CameraCode[], framesEach = 20): void {
  const chroma = Buffer.alloc((W / 2) * (H / 2) * 2, 128);
  const parts: Buffer[] = [Buffer.from(`YUV4MPEG2 W${W} H${H} F10:1 Ip A1:1 C420jpeg\n`)];
  for (const code of codes) {
    const luma = typeof code === 'string' ? qrFrame(code) : linearFrame(code.bcid, code.text);
    for (let k = 0; k < framesEach; k++) parts.push(Buffer.from('FRAME\n'), luma, chroma);
  }
  fs.writeFileSync(file, Buffer.concat(parts));
}
