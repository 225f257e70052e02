import { CONNECTION_ERROR_MESSAGE } from '#web/page-contract/connection-error.ts';
import type { ApiErrorBody } from '#shared/errors.ts';

const FALLBACK_MESSAGES: Record<number, string> = {
  401: 'Not authenticated',
  403: 'You are not allowed to do this.',
  404: 'Not found',
  413: 'The upload is too large.',
  429: 'Too many attempts. Please wait a moment and try again.',
};
const GENERIC_MESSAGE = 'Something went wrong on our side. Please try again.';

/** An answer of the API that was not a success, or no answer at all (status 0). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: Record<string, string> | undefined;
  /** Extra facts some codes carry (MESSAGE_BLOCKED: category and matched spans). */
  readonly details: Record<string, unknown> | undefined;

  constructor(options: {
    status: number;
    code: string;
    message: string;
    fields?: Record<string, string> | undefined;
    details?: Record<string, unknown> | undefined;
  }) {
    super(options.message);
    this.name = 'ApiError';
    this.status = options.status;
    this.code = options.code;
    this.fields = options.fields;
    this.details = options.details;
  }

  get isNetworkError() {
    return this.status === 0;
  }
}

type ApiFetchInit = Omit<RequestInit, 'body'> & {
  /** A plain object or array is sent as JSON; FormData, Blob, URLSearchParams and strings as they are. */
  body?: unknown;
};

function isRawBody(body: unknown): body is BodyInit {
  return (
    typeof body === 'string' ||
    body instanceof FormData ||
    body instanceof Blob ||
    body instanceof URLSearchParams ||
    body instanceof ArrayBuffer ||
    ArrayBuffer.isView(body) ||
    body instanceof ReadableStream
  );
}

function isErrorBody(value: unknown): value is Partial<ApiErrorBody> {
  return typeof value === 'object' && value !== null && ('message' in value || 'code' in value);
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (!type.includes('json')) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Calls the JSON API on our own origin (the session cookie goes along).
 * Resolves with the parsed body (undefined for an empty one); rejects with ApiError.
 */
export async function apiFetch<T>(path: string, init: ApiFetchInit = {}): Promise<T> {
  const { body, headers: initHeaders, ...rest } = init;
  const headers = new Headers(initHeaders);
  if (!headers.has('accept')) headers.set('accept', 'application/json');

  let requestBody: BodyInit | undefined;
  if (body !== undefined && body !== null) {
    if (isRawBody(body)) {
      requestBody = body;
    } else {
      requestBody = JSON.stringify(body);
      if (!headers.has('content-type')) headers.set('content-type', 'application/json');
    }
  }

  let response: Response;
  try {
    response = await fetch(path, { credentials: 'same-origin', ...rest, headers, body: requestBody });
  } catch (error) {
    // A cancelled query is not a failure: let TanStack Query see the AbortError.
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError({ status: 0, code: 'NETWORK_ERROR', message: CONNECTION_ERROR_MESSAGE });
  }

  const data = await readJson(response);
  if (!response.ok) {
    const errorBody = isErrorBody(data) ? data : undefined;
    throw new ApiError({
      status: response.status,
      code: typeof errorBody?.code === 'string' ? errorBody.code : `HTTP_${response.status}`,
      message:
        typeof errorBody?.message === 'string' && errorBody.message
          ? errorBody.message
          : (FALLBACK_MESSAGES[response.status] ?? GENERIC_MESSAGE),
      fields: errorBody?.fields && typeof errorBody.fields === 'object' ? errorBody.fields : undefined,
      details: errorBody?.details && typeof errorBody.details === 'object' ? errorBody.details : undefined,
    });
  }
  return data as T;
}

/** The message to show for any thrown value. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  return GENERIC_MESSAGE;
}
