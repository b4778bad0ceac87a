import { fieldErrorCodes } from '@tempora/contracts';
import i18next from 'i18next';

/**
 * Field errors of a failed call as messages for the fields (issue 29), out of every page's first
 * JavaScript: the API client loads this module, and the `fieldErrors` namespace
 * (`locales/{lng}/fieldErrors.json`) it translates with, only when a problem carries field errors
 * (`loadFieldErrors`). Only forms get them.
 */
export const FIELD_ERRORS_NS = 'fieldErrors';

/**
 * The field errors of a problem, by field, translated: loads the messages of the language in use
 * first (once), then `fieldErrorsOf`.
 */
export async function loadFieldErrors(errors: unknown): Promise<Record<string, string[]>> {
  if (Array.isArray(errors) && i18next.isInitialized)
    await i18next.loadNamespaces(FIELD_ERRORS_NS).catch(() => undefined); // else the server's text
  return fieldErrorsOf(errors);
}

/**
 * The field errors of a problem, by field, as messages for the fields: the server sends
 * `[{ field, code, params, message }]` (contracts `FieldIssue`); a known `code` becomes the
 * message of `fieldErrors:{code}` in the interface language (issue 29: never zod's English text in
 * the French UI), else the server's message stands. A map of field → messages is accepted too.
 * The namespace must be loaded (`loadFieldErrors` does it).
 */
export function fieldErrorsOf(errors: unknown): Record<string, string[]> {
  const byField: Record<string, string[]> = {};
  if (Array.isArray(errors)) {
    for (const entry of errors as {
      field?: unknown;
      message?: unknown;
      code?: unknown;
      params?: unknown;
    }[]) {
      if (typeof entry?.field !== 'string') continue;
      byField[entry.field] ??= [];
      byField[entry.field]!.push(fieldMessage(entry));
    }
  } else if (errors && typeof errors === 'object') {
    for (const [field, messages] of Object.entries(errors)) {
      byField[field] = Array.isArray(messages) ? messages.map(String) : [String(messages)];
    }
  }
  return byField;
}

/** The translated message of one field error (its code), or the server's text. */
export function fieldMessage(entry: { message?: unknown; code?: unknown; params?: unknown }): string {
  const code = typeof entry.code === 'string' ? entry.code : '';
  if (code && (fieldErrorCodes as readonly string[]).includes(code) && i18next.isInitialized) {
    const params = entry.params && typeof entry.params === 'object' ? entry.params : {};
    const text = i18next.t(`${FIELD_ERRORS_NS}:${code}`, { ...params, defaultValue: '' });
    if (text) return text;
  }
  return String(entry.message ?? '');
}
