import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { avatarProblem, type FileLike } from '#shared/rules/avatar.ts';
import { specializationProblem } from '#shared/rules/specializations.ts';
import { withAvatarRules } from './profiles.ts';

describe('specialization rule', () => {
  it.each([
    [[], 'Please choose at least one subject'],
    [['Mathematics'], null],
    [['Mathematics', 'Mathematics', 'Mathematics'], null],
    [['Sciences'], null],
    [['Sciences', 'Sciences'], 'Only Mathematics allows several subjects; choose one subject in other categories'],
    [['Mathematics', 'Sciences'], 'Only Mathematics allows several subjects; choose one subject in other categories'],
  ])('%j -> %s', (categories, problem) => {
    expect(specializationProblem(categories)).toBe(problem);
  });
});

describe('avatar rules', () => {
  // The schema (server, registration form) and the plain check (the pickers) say the same.
  const avatar = withAvatarRules(z.custom<FileLike>());
  const messageFor = (file: FileLike) => {
    const message = avatar.safeParse(file).error?.issues[0]?.message ?? null;
    expect(avatarProblem(file)).toBe(message);
    return message;
  };

  it('takes jpeg, png and webp up to 5 MB', () => {
    for (const type of ['image/jpeg', 'image/jpg', 'image/png', 'image/webp'])
      expect(messageFor({ size: 5 * 1024 * 1024, type })).toBeNull();
  });

  it('refuses larger files and other types with the SPEC messages', () => {
    expect(messageFor({ size: 5 * 1024 * 1024 + 1, type: 'image/png' })).toBe('Max file size is 5MB');
    expect(messageFor({ size: 10, type: 'image/gif' })).toBe('Only .jpg, .jpeg, .png and .webp formats are supported');
    expect(messageFor({ size: 10, type: 'image/svg+xml' })).toBe(
      'Only .jpg, .jpeg, .png and .webp formats are supported',
    );
  });
});
