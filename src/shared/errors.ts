// Error codes shared by server and client, each with the text a user sees (SPEC.md §8 wording where it has one).
export const errorMessages = {
  VALIDATION_FAILED: 'Please check the highlighted fields.',
  UNAUTHENTICATED: 'Not authenticated',
  FORBIDDEN: 'You are not allowed to do this.',
  NOT_FOUND: 'Not found',
  CONFLICT: 'This conflicts with something that already exists.',
  PAYLOAD_TOO_LARGE: 'The upload is too large.',
  RATE_LIMITED: 'Too many attempts. Please wait a moment and try again.',
  INTERNAL: 'Something went wrong on our side. Please try again.',
} as const;

export type ErrorCode = keyof typeof errorMessages;

/** The JSON body of every error answer of the API. */
export type ApiErrorBody = {
  code: ErrorCode | (string & {});
  message: string;
  /** Field name (dot path) to the message for that field. */
  fields?: Record<string, string>;
};
