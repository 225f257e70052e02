import { describe, expect, it } from 'vitest';
import { requiredText } from './text-fields.ts';

const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues[0]?.message;

describe('requiredText', () => {
  const note = requiredText('Please add a note', 5, 'At most 5 characters');

  it('keeps the text without the spaces around it', () => {
    expect(note.parse('  hello ')).toBe('hello');
  });

  it('refuses missing text, text of only spaces and what is not text with the required message', () => {
    for (const input of [undefined, null, '', '   \n', 42, {}]) {
      expect(firstMessage(note.safeParse(input))).toBe('Please add a note');
    }
  });

  it('counts the length after trimming, and says so beyond it', () => {
    expect(note.parse('  12345  ')).toBe('12345');
    expect(firstMessage(note.safeParse('123456'))).toBe('At most 5 characters');
  });
});
