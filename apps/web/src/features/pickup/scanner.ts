/**
 * The phone's camera as a code reader (issue 39): the browser's `BarcodeDetector` where it exists
 * (Android Chrome, Safari: QR codes and the chips' and bibs' printed barcodes), otherwise, on
 * frames of the video drawn to a canvas, jsQR for QR codes (48 KB gzipped) and, when the camera
 * looks for a chip, ZXing's 1D readers for the printed barcodes of chips and bibs (Code 128,
 * Code 39, EAN, ITF: `linear-codes.ts`, 17 KB gzipped) — each loaded only by the pickup page,
 * when first needed. Calls `onCode` with each text read; returns the function that stops the
 * camera.
 */
interface Detector {
  detect(source: CanvasImageSource): Promise<{ rawValue: string }[]>;
}
interface DetectorClass {
  new (options?: { formats: string[] }): Detector;
  getSupportedFormats?: () => Promise<string[]>;
}

const EVERY_MS = 150;
const WANTED = ['qr_code', 'code_128', 'code_39', 'ean_13', 'itf', 'data_matrix'];

async function nativeDetector(): Promise<Detector | null> {
  const Native = (globalThis as { BarcodeDetector?: DetectorClass }).BarcodeDetector;
  if (!Native) return null;
  const supported = (await Native.getSupportedFormats?.().catch(() => [])) ?? [];
  const formats = WANTED.filter((f) => supported.includes(f));
  return formats.includes('qr_code') ? new Native({ formats }) : null;
}

/** What the camera looks for: an entry's QR, or a chip (its printed 1D barcode, or a QR). */
export type ScanTarget = 'entry' | 'chip';

/** A reader of video frames: native, else jsQR (and the 1D readers for a chip). */
async function frameReader(
  video: HTMLVideoElement,
  target: ScanTarget,
): Promise<() => Promise<string | null>> {
  const native = await nativeDetector();
  if (native) return async () => (await native.detect(video).catch(() => []))[0]?.rawValue ?? null;
  const [{ default: jsQR }, linear] = await Promise.all([
    import('jsqr'),
    target === 'chip' ? import('./linear-codes.ts') : null,
  ]);
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d', { willReadFrequently: true });
  return async () => {
    const { videoWidth: w, videoHeight: h } = video;
    if (!context || !w || !h) return null;
    canvas.width = w;
    canvas.height = h;
    context.drawImage(video, 0, 0, w, h);
    const image = context.getImageData(0, 0, w, h);
    if (linear) {
      const text = linear.readLinearCode(linear.lumaOf(image.data, w, h), w, h);
      if (text) return text;
    }
    return jsQR(image.data, w, h, { inversionAttempts: 'dontInvert' })?.data ?? null;
  };
}

export async function startScanner(
  video: HTMLVideoElement,
  onCode: (text: string) => void,
  target: ScanTarget = 'entry',
): Promise<() => void> {
  const stream = await navigator.mediaDevices.getUserMedia({
    video: { facingMode: 'environment' },
    audio: false,
  });
  video.srcObject = stream;
  video.setAttribute('playsinline', 'true');
  await video.play().catch(() => undefined);
  const read = await frameReader(video, target);
  let stopped = false;
  let last = '';
  const loop = async () => {
    while (!stopped) {
      const text = await read();
      // The same code held in front of the camera is read once until another one comes.
      if (text && text !== last) {
        last = text;
        onCode(text);
      }
      await new Promise((r) => setTimeout(r, EVERY_MS));
    }
  };
  void loop();
  return () => {
    stopped = true;
    for (const track of stream.getTracks()) track.stop();
    video.srcObject = null;
  };
}

/** The entry code in a scanned text (the QR holds the code; a link holding it works too). */
export function entryCodeIn(text: string): string | null {
  return /E[0-9A-HJKMNP-TV-Z]{20}/.exec(text.toUpperCase())?.[0] ?? null;
}
