import { describe, expect, it } from 'vitest';
import { truncateText } from './text.ts';

describe('truncateText', () => {
  it('keeps short texts and cuts long ones with an ellipsis', () => {
    expect(truncateText('short', 100)).toBe('short');
    expect(truncateText('a'.repeat(100), 100)).toBe('a'.repeat(100));
    expect(truncateText('a'.repeat(101), 100)).toBe(`${'a'.repeat(100)}…`);
    expect(truncateText(`${'a'.repeat(99)} tail`, 100)).toBe(`${'a'.repeat(99)}…`);
  });

  it('never cuts a character in half', () => {
    expect(truncateText('😀'.repeat(5), 3)).toBe('😀😀😀…');
  });
});
