import type { z } from 'zod';
import { AppError } from './errors.ts';

/**
 * Parses untrusted input with a zod schema; on failure throws a 400 `VALIDATION_FAILED` problem
 * whose `errors` name every bad field, so a caller can show them beside the form fields.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, where = 'body'): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new AppError(
    400,
    'VALIDATION_FAILED',
    `Invalid ${where}`,
    result.error.issues.map((issue) => ({
      field: issue.path.length ? issue.path.join('.') : where,
      message: issue.message,
    })),
  );
}
