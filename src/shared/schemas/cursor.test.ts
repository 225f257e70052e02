import { describe, expect, it } from 'vitest';
import { cursorSchema } from './cursor.ts';

describe('cursorSchema', () => {
  it('takes microseconds and a UUID', () => {
    expect(cursorSchema.safeParse('1763800000000000_0b8c3a52-4d0e-4f7a-9d0e-2f1b6c7a8e90').success).toBe(true);
  });

  it('refuses an id of 36 dashes, which the uuid type would fail on in the database', () => {
    expect(cursorSchema.safeParse(`1_${'-'.repeat(36)}`).success).toBe(false);
  });

  it('refuses anything else', () => {
    for (const cursor of [
      '',
      'abc',
      '1_',
      '_0b8c3a52-4d0e-4f7a-9d0e-2f1b6c7a8e90',
      '1.5_0b8c3a52-4d0e-4f7a-9d0e-2f1b6c7a8e90',
    ]) {
      expect(cursorSchema.safeParse(cursor).success, cursor).toBe(false);
    }
  });
});
