/** A field-level validation error carried in a problem+json `errors` array. */
export interface FieldError {
  field: string;
  message: string;
}

/**
 * The server's one error type (style.md "Errors"): a stable code, an HTTP status, and whether the
 * failure is ours (reported, details hidden) or the caller's (explained).
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly errors?: FieldError[],
  ) {
    super(message);
    this.name = 'AppError';
  }

  get report(): boolean {
    return this.status >= 500;
  }
}

/** Small factories with stable codes (Outline style). */
export const errors = {
  badRequest: (code: string, message: string, fieldErrors?: FieldError[]) =>
    new AppError(400, code, message, fieldErrors),
  unauthorized: (message = 'Sign-in required') => new AppError(401, 'UNAUTHORIZED', message),
  forbidden: (message = 'Not allowed') => new AppError(403, 'FORBIDDEN', message),
  notFound: (code = 'NOT_FOUND', message = 'Not found') => new AppError(404, code, message),
  conflict: (code: string, message: string) => new AppError(409, code, message),
  tooMany: (message = 'Too many requests') => new AppError(429, 'RATE_LIMITED', message),
  unavailable: (code: string, message: string) => new AppError(503, code, message),
};
