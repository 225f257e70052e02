import { ATTACHMENT_NAME_SHORTEN_AT } from '../constants.ts';

const UNITS = ['B', 'KB', 'MB', 'GB'] as const;

/** SPEC.md §9: whole numbers, units B, KB, MB, GB, steps of 1024 ("1536" is "2 KB"). */
export function formatFileSize(bytes: number) {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 B';
  let value = bytes;
  let unit = 0;
  // Round first, so 1023.6 KB reads "1 MB", never "1024 KB".
  while (unit < UNITS.length - 1 && Math.round(value) >= 1024) {
    value /= 1024;
    unit += 1;
  }
  return `${Math.round(value)} ${UNITS[unit]}`;
}

/** A name over 20 characters is cut, keeping its extension: "a-very-long-report….pdf". */
export function shortenFileName(name: string, maxLength = ATTACHMENT_NAME_SHORTEN_AT) {
  const characters = Array.from(name);
  if (characters.length <= maxLength) return name;
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 && name.length - dot <= 6 ? name.slice(dot) : '';
  const keep = Math.max(1, maxLength - Array.from(extension).length - 1);
  return `${characters.slice(0, keep).join('')}…${extension}`;
}
