import type { TFunction } from 'i18next';
import { ApiError } from '../../../lib/api-client.ts';

/** The message of a field in error (the server's code, in the page's words), or undefined. */
export function fieldText(t: TFunction, error: unknown, field: string): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const codes = error.fieldErrors[field];
  return codes?.length ? codes.map((c) => t(`errors.${c}`, { defaultValue: c })).join(' ') : undefined;
}

/** A failed call in the page's words: its code's sentence, else the generic one. */
export function problemText(t: TFunction, error: unknown): string | null {
  if (!error) return null;
  if (error instanceof ApiError) {
    const known = t(`errors.${error.code}`, { defaultValue: '' });
    if (known) return known;
  }
  return t('errors.generic', { message: (error as Error).message });
}
