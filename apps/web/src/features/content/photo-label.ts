import type { Photo } from '@tempora/contracts';
import type { TFunction } from 'i18next';

/** A photo's accessible name: its bibs, else its caption or file name. */
export function photoLabel(t: TFunction<'content'>, photo: Photo) {
  return photo.bibs.length
    ? t('photos.withBibs', { bibs: photo.bibs.join(', ') })
    : photo.caption || photo.fileName;
}
