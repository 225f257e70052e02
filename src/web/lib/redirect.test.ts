import { describe, expect, it } from 'vitest';
import { safeRedirectPath, signInDestination } from './redirect.ts';

const origin = 'https://virtualhelp.example';

describe('safeRedirectPath', () => {
  it('keeps paths of this site with their query and hash', () => {
    expect(safeRedirectPath('/student/posts', origin)).toBe('/student/posts');
    expect(safeRedirectPath('/teacher/jobs?highlight=abc#top', origin)).toBe('/teacher/jobs?highlight=abc#top');
  });

  it.each([
    [null],
    [''],
    ['chat'],
    ['https://evil.example/'],
    ['//evil.example/steal'],
    ['/\\evil.example'],
    ['javascript:alert(1)'],
  ])('refuses %j', (value) => {
    expect(safeRedirectPath(value, origin)).toBeNull();
  });

  it('refuses a path the URL parser would turn into another host', () => {
    expect(safeRedirectPath('/\t/evil.example', origin)).toBeNull();
  });
});

describe('signInDestination', () => {
  it('goes to the page the user was headed for, else /chat', () => {
    expect(signInDestination('/profile', origin)).toBe('/profile');
    expect(signInDestination(null, origin)).toBe('/chat');
    expect(signInDestination('//evil.example', origin)).toBe('/chat');
  });

  it('never returns to a sign-in page', () => {
    expect(signInDestination('/auth/login?redirectTo=%2Fchat', origin)).toBe('/chat');
  });
});
