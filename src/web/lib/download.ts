import { ApiError } from './api.ts';

/** Fetches a file through its authorized route as a File named `filename`; throws ApiError when refused. */
export async function fetchFile(url: string, filename: string) {
  const response = await fetch(url, { credentials: 'same-origin' });
  if (!response.ok) {
    throw new ApiError({ status: response.status, code: `HTTP_${response.status}`, message: 'Download Failed' });
  }
  const blob = await response.blob();
  return new File([blob], filename, { type: blob.type });
}

/** Fetches a file through its authorized route and saves it under `filename`; throws ApiError when refused. */
export async function downloadFile(url: string, filename: string) {
  const href = URL.createObjectURL(await fetchFile(url, filename));
  const link = document.createElement('a');
  link.href = href;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers read the blob after click() returns; release it once the save has surely started.
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}
