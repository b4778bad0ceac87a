import fs from 'node:fs';
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
 * A Y4M video (what Chromium's fake camera reads: `--use-file-for-fake-video-capture`) showing each
 * text as a QR code for `framesEach` frames in turn, at 10 frames a second; Chromium loops it.
 */
export function writeQrVideo(file: string, texts: string[], framesEach = 20): void {
  const chroma = Buffer.alloc((W / 2) * (H / 2) * 2, 128);
  const parts: Buffer[] = [Buffer.from(`YUV4MPEG2 W${W} H${H} F10:1 Ip A1:1 C420jpeg\n`)];
  for (const text of texts) {
    const luma = qrFrame(text);
    for (let k = 0; k < framesEach; k++) parts.push(Buffer.from('FRAME\n'), luma, chroma);
  }
  fs.writeFileSync(file, Buffer.concat(parts));
}
