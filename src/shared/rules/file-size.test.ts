import { describe, expect, it } from 'vitest';
import { formatFileSize, shortenFileName } from './file-size.ts';

describe('formatFileSize', () => {
  it.each([
    [0, '0 B'],
    [1, '1 B'],
    [1023, '1023 B'],
    [1024, '1 KB'],
    [1536, '2 KB'],
    [1024 * 1024 - 1, '1 MB'],
    [5 * 1024 * 1024, '5 MB'],
    [3.4 * 1024 ** 3, '3 GB'],
    [5000 * 1024 ** 3, '5000 GB'],
    [-5, '0 B'],
  ])('%d bytes is %s', (bytes, text) => {
    expect(formatFileSize(bytes)).toBe(text);
  });
});

describe('shortenFileName', () => {
  it('keeps names of up to 20 characters', () => {
    expect(shortenFileName('notes.pdf')).toBe('notes.pdf');
    expect(shortenFileName('a'.repeat(16) + '.pdf')).toBe('a'.repeat(16) + '.pdf');
  });

  it('cuts longer names to 20 characters and keeps the extension', () => {
    const short = shortenFileName('a-very-long-report-name-final.pdf');
    expect(short).toBe('a-very-long-rep….pdf');
    expect(Array.from(short)).toHaveLength(20);
    expect(shortenFileName('x'.repeat(30))).toBe(`${'x'.repeat(19)}…`);
  });
});
