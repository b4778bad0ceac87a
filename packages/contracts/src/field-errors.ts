import type { z } from 'zod';

/**
 * Stable codes of a field's validation error (issue 29): the server puts one on every field of a
 * 400 `VALIDATION_FAILED` problem (`errors: [{ field, code, params, message }]`), the web client
 * turns it into a translated message on that field (`fieldErrors:{code}`, the web's
 * lib/field-errors.ts). `message` stays zod's English text, for API users.
 */
export const fieldErrorCodes = [
  'required',
  'tooShort',
  'tooLong',
  'tooSmall',
  'tooBig',
  'notInteger',
  'invalidEmail',
  'invalidUrl',
  'invalidDate',
  'invalidDateTime',
  'invalidFormat',
  'invalidChoice',
  'unknownField',
  'invalid',
  // Issue 29: an import's undo refused, per kind of reference (`params`: count, names).
  'usedByResults',
  'usedByPayments',
  'usedByConfirmation',
] as const;
export type FieldErrorCode = (typeof fieldErrorCodes)[number];

/** One field's error as a problem+json carries it. */
export interface FieldIssue {
  /** The field's path, dot-separated (`refundPolicy.tiers.0.until`). */
  field: string;
  code: FieldErrorCode;
  /** What the message needs: a bound (`min`, `max`). */
  params?: { min?: number; max?: number; count?: number; names?: string };
  /** zod's English message. */
  message: string;
}

const num = (v: unknown) => (typeof v === 'bigint' ? Number(v) : typeof v === 'number' ? v : undefined);

/** The code and parameters of one zod issue (zod 4 issue shapes). */
export function fieldIssueOf(issue: z.core.$ZodIssue, where = 'body'): FieldIssue {
  const field = issue.path.length ? issue.path.join('.') : where;
  const base = { field, message: issue.message };
  switch (issue.code) {
    case 'invalid_type':
      // A missing field is "expected string, received undefined".
      return { ...base, code: /received undefined|required/i.test(issue.message) ? 'required' : 'invalid' };
    case 'too_small': {
      const min = num(issue.minimum);
      if (issue.origin === 'string' || issue.origin === 'array' || issue.origin === 'set')
        return { ...base, code: min === 1 ? 'required' : 'tooShort', params: { min } };
      return { ...base, code: 'tooSmall', params: { min } };
    }
    case 'too_big': {
      const max = num(issue.maximum);
      if (issue.origin === 'string' || issue.origin === 'array' || issue.origin === 'set')
        return { ...base, code: 'tooLong', params: { max } };
      return { ...base, code: 'tooBig', params: { max } };
    }
    case 'not_multiple_of':
      return { ...base, code: 'notInteger' };
    case 'invalid_format': {
      const format = issue.format;
      if (format === 'email') return { ...base, code: 'invalidEmail' };
      if (format === 'url') return { ...base, code: 'invalidUrl' };
      if (format === 'date') return { ...base, code: 'invalidDate' };
      if (format === 'datetime') return { ...base, code: 'invalidDateTime' };
      // A regex of a date (`YYYY-MM-DD`) is a date to the person typing it.
      if (
        format === 'regex' &&
        /\\d\{4\}-\\d\{2\}-\\d\{2\}|YYYY-MM-DD/.test(`${issue.pattern ?? ''} ${issue.message}`)
      )
        return { ...base, code: 'invalidDate' };
      return { ...base, code: 'invalidFormat' };
    }
    case 'invalid_value':
    case 'invalid_union':
      return { ...base, code: 'invalidChoice' };
    case 'unrecognized_keys':
      return { ...base, code: 'unknownField' };
    default:
      return { ...base, code: 'invalid' };
  }
}
