import { call, type Caller } from './callers.ts';
import type { TestApp } from './test-app.ts';

// Posting tutoring requests, for the tests of the requests feature.

// Request creation is rate limited per address: each call speaks from its own.
let lastAddress = 0;
/** Posts a request (JSON, or a multipart form) as `caller`. */
export const postRequest = (
  t: TestApp,
  caller: Caller | undefined,
  payload: object | FormData,
  headers: Record<string, string> = {},
) =>
  call(t, caller, 'POST', '/api/requests', payload, {
    headers,
    remoteAddress: `10.1.${Math.floor(++lastAddress / 250)}.${lastAddress % 250}`,
  });

/** A request every check accepts, in this subject. */
export const validRequest = (subjectId: string) => ({
  type: 'tutoring',
  subjectId,
  description: 'I need help with quadratic equations',
  budgetMinCents: 800,
  budgetMaxCents: 1500,
});

/** A multipart request form with these files in "attachments". */
export function requestForm(
  fields: Record<string, string | number>,
  files: { bytes: Uint8Array; filename: string; type?: string }[],
) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, String(value));
  for (const file of files)
    form.append(
      'attachments',
      new Blob([new Uint8Array(file.bytes)], { type: file.type ?? 'application/octet-stream' }),
      file.filename,
    );
  return form;
}
