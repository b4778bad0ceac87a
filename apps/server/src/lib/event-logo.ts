import fs from 'node:fs/promises';
import path from 'node:path';
import type Sharp from 'sharp';
import { lazyRequire } from './lazy-require.ts';

const sharp = lazyRequire<typeof Sharp>('sharp');

/** Where an event's logo lives under DATA_DIR/files (WebP, at most 512 px, see console/events). */
export function logoFile(dataDir: string, eventId: string): string {
  return path.join(dataDir, 'files', 'logos', `${encodeURIComponent(eventId)}.webp`);
}

/**
 * An event's logo as PNG (what PDF writers embed: pdfkit reads PNG and JPEG, not WebP), at most
 * `height` pixels high; null when the event has none or its file is gone.
 */
export async function logoPng(dataDir: string, eventId: string, height = 160): Promise<Buffer | null> {
  const webp = await fs.readFile(logoFile(dataDir, eventId)).catch(() => null);
  if (!webp) return null;
  try {
    return await sharp()(webp).resize({ height, withoutEnlargement: true }).png().toBuffer();
  } catch {
    return null;
  }
}
