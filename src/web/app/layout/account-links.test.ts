import { describe, expect, it } from 'vitest';
import { getAccountLinks } from './account-links.ts';

const labels = (...args: Parameters<typeof getAccountLinks>) => getAccountLinks(...args).map((link) => link.label);

describe('the links of a user’s own menu', () => {
  it('gives a student their saved tutors, and their payments where the operator takes payments', () => {
    expect(labels('student', true)).toEqual([
      'Profile',
      'Saved tutors',
      'Account settings',
      'Notification settings',
      'Payments',
    ]);
    expect(labels('student', false)).toEqual(['Profile', 'Saved tutors', 'Account settings', 'Notification settings']);
  });

  it('gives a teacher their earnings only where the operator takes payments, and no saved tutors', () => {
    expect(labels('teacher', true)).toEqual(['Profile', 'Account settings', 'Notification settings', 'Earnings']);
    expect(labels('teacher', false)).toEqual(['Profile', 'Account settings', 'Notification settings']);
  });

  it('leads each link to its own page', () => {
    const hrefs = getAccountLinks('student', true).map((link) => link.href);
    expect(new Set(hrefs).size).toBe(hrefs.length);
    expect(hrefs).toContain('/tutors/saved');
  });
});
