import fs from 'node:fs/promises';
import path from 'node:path';
import type Exifr from 'exifr';
import type Sharp from 'sharp';
import { lazyRequire } from '../../../lib/lazy-require.ts';

const exifr = lazyRequire<typeof Exifr>('exifr');
const sharp = lazyRequire<typeof Sharp>('sharp');

/**
 * Bibs from a photographer's file name (issue 8: `1234_x.jpg`): the part before the first `_`,
 * split on `-` or `+` (`12-F3_finish.jpg` → 12 and F3); none when it does not look like bibs.
 */
export function bibsFromFileName(fileName: string): string[] {
  const base = path.basename(fileName).replace(/\.[^.]*$/, '');
  const underscore = base.indexOf('_');
  if (underscore <= 0) return [];
  const tokens = base.slice(0, underscore).split(/[-+]/);
  return tokens.every((t) => /^[A-Za-z]{0,2}\d{1,6}$/.test(t))
    ? [...new Set(tokens.map((t) => t.toUpperCase()))]
    : [];
}

/** Sizes generated for every photo. */
export const SIZES = { thumb: 400, web: 1600 } as const;
export type PhotoSize = keyof typeof SIZES;

/** Where a photo's file of one size lives under DATA_DIR/files. */
export function photoFile(dataDir: string, id: string, size: PhotoSize): string {
  return path.join(dataDir, 'files', 'photos', `${id}-${size}.webp`);
}

/** What processing a photo yields. */
export interface ProcessedPhoto {
  width: number;
  height: number;
  takenAt: Date | null;
}

/**
 * Reads the EXIF capture time (exifr), then writes the thumbnail and the web size (sharp, WebP,
 * rotated upright, metadata stripped). Throws when the image cannot be decoded.
 */
export async function processPhoto(dataDir: string, id: string, buffer: Buffer): Promise<ProcessedPhoto> {
  let takenAt: Date | null = null;
  try {
    const exif = await exifr().parse(buffer, ['DateTimeOriginal', 'CreateDate', 'DateTime']);
    const value = exif?.DateTimeOriginal ?? exif?.CreateDate ?? exif?.DateTime;
    if (value instanceof Date && !Number.isNaN(value.getTime())) takenAt = value;
  } catch {
    // No or broken EXIF: the upload time will do.
  }
  // limitInputPixels guards against decompression bombs (a tiny file declaring a huge image).
  const image = sharp()(buffer, { limitInputPixels: 100_000_000, failOn: 'error' }).rotate();
  await fs.mkdir(path.dirname(photoFile(dataDir, id, 'web')), { recursive: true });
  const web = await image
    .clone()
    .resize({ width: SIZES.web, height: SIZES.web, fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 80 })
    .toFile(photoFile(dataDir, id, 'web'));
  await image
    .clone()
    .resize({ width: SIZES.thumb, height: SIZES.thumb, fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 70 })
    .toFile(photoFile(dataDir, id, 'thumb'));
  return { width: web.width, height: web.height, takenAt };
}

/** Removes a photo's files (missing files are fine). */
export async function removePhotoFiles(dataDir: string, id: string): Promise<void> {
  for (const size of Object.keys(SIZES) as PhotoSize[])
    await fs.rm(photoFile(dataDir, id, size), { force: true });
}

/** Bidirectional controls (a `\u202e` turns `gpj.exe` into `exe.jpg` on screen) and other controls. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const UNSAFE_CHARS = /[\u0000-\u001f\u007f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * The name a photo is stored and downloaded under (issue 13): the base name of what the browser
 * sent, without path, control or bidirectional characters, and with the extension of the type
 * detected from the bytes, whatever the sent name claimed.
 */
export function safeFileName(sent: string, type: 'jpeg' | 'png' | 'webp'): string {
  const base = (sent.split(/[\\/]/).pop() ?? '').replace(UNSAFE_CHARS, '').trim();
  const stem = base.replace(/\.[^.]*$/, '').slice(0, 150) || 'photo';
  return `${stem}.${type === 'jpeg' ? 'jpg' : type}`;
}
