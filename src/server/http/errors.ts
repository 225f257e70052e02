import { errorMessages, type ErrorCode } from '#shared/errors.ts';

const statusByCode: Record<ErrorCode, number> = {
  VALIDATION_FAILED: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  INTERNAL: 500,
};

/** Thrown by services; the error handler turns it into `{ code, message, fields? }` with the matching status. */
export class AppError extends Error {
  readonly statusCode: number;
  readonly fields?: Record<string, string>;

  constructor(
    readonly code: ErrorCode,
    options: { message?: string; fields?: Record<string, string>; status?: number } = {},
  ) {
    super(options.message ?? errorMessages[code]);
    this.name = 'AppError';
    this.statusCode = options.status ?? statusByCode[code];
    this.fields = options.fields;
  }
}

/** A 400 for one field, with the message the form shows under it. */
export const fieldError = (field: string, message: string) =>
  new AppError('VALIDATION_FAILED', { message, fields: { [field]: message } });
