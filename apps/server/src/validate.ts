import { fieldIssueOf } from '@tempora/contracts';
import type { z } from 'zod';
import { AppError } from './errors.ts';

/**
 * Parses untrusted input with a zod schema; on failure throws a 400 `VALIDATION_FAILED` problem
 * whose `errors` name every bad field with a stable code (`fieldIssueOf`, contracts), so a caller
 * can show a translated message beside each form field.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, where = 'body'): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new AppError(
    400,
    'VALIDATION_FAILED',
    `Invalid ${where}`,
    result.error.issues.map((issue) => fieldIssueOf(issue, where)),
  );
}
