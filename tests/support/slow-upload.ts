import { request as httpRequest } from 'node:http';
import { TINY_PNG } from './files.ts';

const BOUNDARY = 'slow-upload';

/**
 * An upload over a real connection (a chat file unless `path` and `field` say otherwise, after the form's `fields`)
 * whose body is sent in two steps: the fields, the file part's head and the PNG's first bytes at once, the rest on
 * `finish()`; `leave()` cuts the connection instead.
 */
export function startUpload(
  url: string,
  cookie: string,
  {
    bytes = TINY_PNG,
    filename = 'graph.png',
    path = '/api/chat/uploads',
    field = 'file',
    fields = {},
  }: { bytes?: Buffer; filename?: string; path?: string; field?: string; fields?: Record<string, string> } = {},
) {
  const request = httpRequest(`${url}${path}`, {
    method: 'POST',
    agent: false,
    headers: { cookie, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
  });
  const answer = new Promise<{ status: number; body: { code?: string; message?: string } }>((resolve, reject) => {
    request.on('response', (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode!, body: JSON.parse(text) }));
    });
    request.on('error', reject);
  });
  for (const [name, value] of Object.entries(fields)) {
    request.write(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  }
  request.write(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: image/png\r\n\r\n`,
  );
  request.write(bytes.subarray(0, 8));
  return {
    answer,
    finish() {
      request.end(Buffer.concat([bytes.subarray(8), Buffer.from(`\r\n--${BOUNDARY}--\r\n`)]));
      return answer;
    },
    leave() {
      answer.catch(() => undefined);
      request.destroy();
    },
  };
}
