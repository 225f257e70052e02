import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkMessage } from '#shared/rules/moderation.ts';
import { DEFAULT_MODERATION_PATTERNS } from '../../db/seed-data.ts';
import { compileLinearPattern, findFirstMatch, PatternError, toPatternMatchers } from './linear-patterns.ts';
import { assertUsablePattern } from './pattern-checks.ts';

const problemOf = (pattern: string) => {
  try {
    compileLinearPattern(pattern);
    return null;
  } catch (error) {
    return error instanceof PatternError ? error.problem : error;
  }
};

const refusalOf = (pattern: string, sample: string) => {
  try {
    assertUsablePattern(pattern, sample);
    return null;
  } catch (error) {
    return (error as { fields?: Record<string, string> }).fields;
  }
};

describe('admin patterns in the linear-time engine', () => {
  it('finds matches case-insensitively, at UTF-16 offsets of the text as given', () => {
    const regex = compileLinearPattern('\\bidiots?\\b');
    expect(findFirstMatch(regex, '🙂 é, IDIOTS!')).toEqual({ start: 6, end: 12 });
    expect(findFirstMatch(regex, 'idiotic')).toBeNull();
  });

  it('answers at once on the shapes that take a backtracking engine minutes', () => {
    // These patterns passed the old checks and then held the event loop for seconds to minutes per text.
    const texts = ['x'.repeat(10_000), 'a'.repeat(10_000), 'abc'.repeat(3_333)];
    for (const pattern of ['(x|x)*y', '[a-z]*[a-z]*[a-z]*[a-z]*!', '.*.*.*.*.*=', '(a+)+$b']) {
      const regex = compileLinearPattern(pattern);
      for (const text of texts) expect(findFirstMatch(regex, text)).toBeNull();
    }
  });

  it('tells a pattern no linear engine can run (lookaheads, backreferences) from one that is not a pattern', () => {
    expect(problemOf('(a)\\1')).toBe('not-linear');
    expect(problemOf('foo(?=bar)')).toBe('not-linear');
    expect(problemOf('foo(?!bar)')).toBe('not-linear');
    expect(problemOf('([a-z]')).toBe('invalid');
    expect(problemOf('\\w{1,999}!')).toBe('too-large');
    expect(problemOf('(?<![a-z])word')).toBe('not-linear');
    expect(problemOf('\\bword\\b')).toBeNull();
  });

  it('runs every default pattern as the JavaScript engine ran the lookaround form the database held before', () => {
    const migration = readFileSync(
      new URL('../../db/migrations/0012_moderation_patterns_without_lookaheads.sql', import.meta.url),
      'utf8',
    );
    const unquote = (quoted: string) => quoted.slice(1, -1).replaceAll("''", "'");
    const rewrites = [
      ...migration.matchAll(/SET "pattern" = ('(?:[^']|'')*')\nWHERE "pattern" = ('(?:[^']|'')*')/g),
    ].map(([, now, before]) => ({ now: unquote(now!), before: unquote(before!) }));
    expect(rewrites.map((rewrite) => rewrite.now)).toEqual(DEFAULT_MODERATION_PATTERNS.map((entry) => entry.pattern));
    const sentences = [
      'you asshole',
      'an @sshole',
      'a $$hat!',
      'n1gg@ go away',
      'n1gg@',
      'n1gg@x',
      'motherfucking hell',
      'kill yourself',
      'go back to your own country',
      'the class assignment',
      'Scunthorpe United won',
      'I am going to kill it in the test',
    ];
    for (const { now, before } of rewrites) {
      const regex = compileLinearPattern(now);
      for (const sentence of sentences) {
        const expected = new RegExp(before, 'i').exec(sentence);
        expect(findFirstMatch(regex, sentence), `${now} on ${sentence}`).toEqual(
          expected && { start: expected.index, end: expected.index + expected[0].length },
        );
      }
    }
  });

  it('skips a stored pattern the engine refuses instead of failing every message', () => {
    const matchers = toPatternMatchers([
      { pattern: '(a)\\1', category: 'offensive' },
      { pattern: '\\bzonk\\b', category: 'other' },
    ]);
    expect(matchers.map((matcher) => matcher.category)).toEqual(['other']);
    expect(checkMessage('a zonk here', { patterns: matchers, ownOrigins: [] })).toMatchObject({ category: 'other' });
  });
});

describe('checks of a new pattern', () => {
  it('refuses what cannot run, costs too much on long texts, blocks (almost) everything or misses the sample', () => {
    expect(refusalOf('(a)\\1', 'aa')).toEqual({ pattern: expect.stringContaining('linear time') });
    expect(refusalOf('(', 'x')).toEqual({ pattern: expect.stringContaining('not a valid regular expression') });
    expect(refusalOf('[a-z]{1,400}!', 'ab!')).toEqual({ pattern: expect.stringContaining('too long to check') });
    for (const pattern of ['x*', '.', 'e', '[aeiou]', '\\s', 'the|a|to', '(x|x)*y']) {
      expect(refusalOf(pattern, 'the sample'), pattern).toEqual({ pattern: expect.stringContaining('almost every') });
    }
    expect(refusalOf('badword', 'a kind message')).toEqual({ sample: expect.stringContaining('does not match') });
  });

  it('accepts the patterns admins write, including the shapes backtracking engines cannot run', () => {
    for (const [pattern, sample] of [
      ['\\bzorgle\\b', 'what a ZORGLE'],
      ['\\bbuy\\s+(?:cheap\\s+)?followers', 'Buy cheap followers now'],
      ['(x|x)*qz', 'xxqz'],
      ['[a-z]*[a-z]*[a-z]*[a-z]*!', 'wow!'],
    ]) {
      expect(refusalOf(pattern!, sample!), pattern).toBeNull();
    }
  });
});
