// Error codes shared by server and client, each with the text a user sees (SPEC.md §8 wording where it has one).
export const errorMessages = {
  VALIDATION_FAILED: 'Please check the highlighted fields.',
  UNAUTHENTICATED: 'Not authenticated',
  FORBIDDEN: 'You are not allowed to do this.',
  NOT_FOUND: 'Not found',
  CONFLICT: 'This conflicts with something that already exists.',
  USERNAME_TAKEN: 'This username is already taken',
  EMAIL_TAKEN: 'An account with this email already exists',
  EMAIL_NOT_VERIFIED: 'Please confirm your e-mail address first. We have sent you a new confirmation link.',
  INVALID_TOKEN: 'The password reset link is invalid or has expired.',
  ALREADY_BID: 'You have already placed a bid on this request.',
  OFFER_ALREADY_ACCEPTED: 'An offer on this request has already been accepted.',
  REQUEST_CLOSED: 'This request is closed: it has expired or is no longer open.',
  CARD_DECLINED: 'Your card was declined.',
  CHECKOUT_CLOSED: 'This checkout is no longer open: it was paid, cancelled or has lapsed.',
  CHECKOUT_IN_PROGRESS: 'You are paying for another offer on this request. Cancel that checkout to accept this one.',
  PAYMENT_IN_PROGRESS: 'Your payment is being processed. Please wait a moment.',
  PAID_BY_TRANSFER: 'This checkout is paid by bank transfer: it is accepted once the transfer arrives.',
  PAYMENT_PROVIDER_FAILED: 'The payment provider did not answer. Nothing was charged; please try again.',
  MESSAGE_BLOCKED: 'This message contains inappropriate content.',
  JOB_NOT_ACCEPTED: 'Only a request with an accepted offer can be marked as completed.',
  PAYMENT_ON_HOLD:
    'This job’s payment is on hold while a refund request or a chargeback is decided. It can be marked as completed once that is settled.',
  JOB_NOT_COMPLETED: 'You can rate a tutor once your job with them is marked as completed.',
  ALREADY_REVIEWED: 'You have already reviewed this job.',
  ADULT_CONFIRMATION_REQUIRED: 'Please confirm that you are 18 or older before your first payout.',
  NOTHING_TO_PAY_OUT: 'You have no earnings available to pay out.',
  PAYOUT_IN_PROGRESS: 'Your last payout is still being processed. You can request another once it is paid.',
  PAYOUT_SETUP_FAILED: 'Stripe did not answer. Nothing was changed; please try setting up payouts again.',
  REVIEW_EDIT_CLOSED: 'A review can only be changed within 7 days of writing it.',
  ALREADY_REPLIED: 'You have already replied to this review.',
  ALREADY_REPORTED: 'You have already reported this review.',
  PAYLOAD_TOO_LARGE: 'The upload is too large.',
  CROSS_SITE_REQUEST: 'This request came from another site and was refused.',
  STORAGE_FULL: 'Your storage space is full.',
  STORAGE_UNAVAILABLE: 'Files cannot be saved or opened right now. Please try again in a few minutes.',
  UNREADABLE_UPLOAD: 'The upload could not be read. Please try again.',
  UNSUPPORTED_MEDIA_TYPE: 'This kind of request body is not accepted here.',
  RATE_LIMITED: 'Too many attempts. Please wait a moment and try again.',
  BUSY: 'We are busy right now. Please try again in a minute.',
  ACCOUNT_LOCKED:
    'Too many failed sign-in attempts for this account. Password sign-in is paused for 15 minutes; you can still reset your password.',
  ACCOUNT_SUSPENDED:
    'Your account has been suspended by an administrator. Contact support if you think this is a mistake.',
  ACCOUNT_DELETION_PENDING:
    'This account is being deleted. You can restore it within 14 days of asking: choose "Restore my account".',
  ACCOUNT_NOT_DELETABLE: 'Your account cannot be deleted yet.',
  INTERNAL: 'Something went wrong on our side. Please try again.',
  SERVICE_UNAVAILABLE: 'Virtual Help is unavailable for a moment. Please try again in a few minutes.',
} as const;

export type ErrorCode = keyof typeof errorMessages;

/** The JSON body of every error answer of the API. */
export type ApiErrorBody = {
  code: ErrorCode | (string & {});
  message: string;
  /** Field name (dot path) to the message for that field. */
  fields?: Record<string, string>;
  /** Extra facts some codes carry for the client, e.g. MESSAGE_BLOCKED's category and the offending spans. */
  details?: Record<string, unknown>;
};
