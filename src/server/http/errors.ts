import { errorMessages, type ErrorCode } from '#shared/errors.ts';

const statusByCode: Record<ErrorCode, number> = {
  VALIDATION_FAILED: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  USERNAME_TAKEN: 409,
  EMAIL_TAKEN: 409,
  EMAIL_NOT_VERIFIED: 403,
  INVALID_TOKEN: 400,
  ALREADY_BID: 409,
  OFFER_ALREADY_ACCEPTED: 409,
  REQUEST_CLOSED: 409,
  CARD_DECLINED: 402,
  CHECKOUT_CLOSED: 409,
  CHECKOUT_IN_PROGRESS: 409,
  PAYMENT_IN_PROGRESS: 409,
  PAID_BY_TRANSFER: 409,
  PAYMENT_PROVIDER_FAILED: 502,
  MESSAGE_BLOCKED: 400,
  JOB_NOT_ACCEPTED: 409,
  PAYMENT_ON_HOLD: 409,
  JOB_NOT_COMPLETED: 409,
  ALREADY_REVIEWED: 409,
  ADULT_CONFIRMATION_REQUIRED: 403,
  NOTHING_TO_PAY_OUT: 409,
  PAYOUT_IN_PROGRESS: 409,
  PAYOUT_SETUP_FAILED: 502,
  REVIEW_EDIT_CLOSED: 409,
  ALREADY_REPLIED: 409,
  ALREADY_REPORTED: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNREADABLE_UPLOAD: 400,
  STORAGE_FULL: 413,
  STORAGE_UNAVAILABLE: 503,
  CROSS_SITE_REQUEST: 403,
  RATE_LIMITED: 429,
  BUSY: 503,
  ACCOUNT_LOCKED: 429,
  ACCOUNT_SUSPENDED: 403,
  ACCOUNT_DELETION_PENDING: 403,
  ACCOUNT_NOT_DELETABLE: 409,
  INTERNAL: 500,
  SERVICE_UNAVAILABLE: 503,
};

/** Thrown by services; the error handler turns it into `{ code, message, fields?, details? }` with the matching status. */
export class AppError extends Error {
  readonly statusCode: number;
  readonly fields?: Record<string, string>;
  readonly details?: Record<string, unknown>;

  constructor(
    readonly code: ErrorCode,
    options: {
      message?: string;
      fields?: Record<string, string>;
      details?: Record<string, unknown>;
      status?: number;
    } = {},
  ) {
    super(options.message ?? errorMessages[code]);
    this.name = 'AppError';
    this.statusCode = options.status ?? statusByCode[code];
    this.fields = options.fields;
    this.details = options.details;
  }
}

/** A 400 for one field, with the message the form shows under it. */
export const fieldError = (field: string, message: string) =>
  new AppError('VALIDATION_FAILED', { message, fields: { [field]: message } });

/**
 * The `{ code, message, fields }` of a failed validation, from zod's issues: each field (a dotted path, `_` for the
 * whole body) with its first message, and the first message of all as the summary.
 */
export function validationFailure(issues: readonly { path: readonly PropertyKey[]; message?: string | undefined }[]) {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    fields[issue.path.map(String).join('.') || '_'] ??= issue.message ?? errorMessages.VALIDATION_FAILED;
  }
  const message = issues[0]?.message ?? errorMessages.VALIDATION_FAILED;
  return { code: 'VALIDATION_FAILED' as const, message, fields };
}
