import { describe, expect, it } from 'vitest';
import { notificationText } from './use-browser-notifications.ts';

describe('notificationText', () => {
  it('keeps up to 50 characters and cuts longer texts to 47 plus "..."', () => {
    expect(notificationText('Hello')).toBe('Hello');
    expect(notificationText('a'.repeat(50))).toBe('a'.repeat(50));
    expect(notificationText('a'.repeat(51))).toBe(`${'a'.repeat(47)}...`);
    expect(notificationText('a'.repeat(51))).toHaveLength(50);
  });
});
