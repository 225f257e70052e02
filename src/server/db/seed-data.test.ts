import { describe, expect, it } from 'vitest';
import { MATHEMATICS_CATEGORY, MODERATION_CATEGORIES } from '#shared/constants.ts';
import { DEFAULT_MODERATION_PATTERNS, SUBJECT_CATALOG } from './seed-data.ts';

describe('SUBJECT_CATALOG', () => {
  it('offers Mathematics with at least 10 subjects', () => {
    const mathematics = SUBJECT_CATALOG.find((entry) => entry.category === MATHEMATICS_CATEGORY);
    expect(mathematics?.subjects.length).toBeGreaterThanOrEqual(10);
  });

  it('offers at least 6 other categories with at least 3 subjects each', () => {
    const others = SUBJECT_CATALOG.filter((entry) => entry.category !== MATHEMATICS_CATEGORY);
    expect(others.length).toBeGreaterThanOrEqual(6);
    for (const entry of others) expect(entry.subjects.length, entry.category).toBeGreaterThanOrEqual(3);
  });

  it('has unique categories, and subject names unique within a category and overall', () => {
    const categories = SUBJECT_CATALOG.map((entry) => entry.category);
    expect(new Set(categories).size).toBe(categories.length);
    for (const entry of SUBJECT_CATALOG) {
      expect(new Set(entry.subjects).size, entry.category).toBe(entry.subjects.length);
    }
    const all = SUBJECT_CATALOG.flatMap((entry) => entry.subjects.map((name) => name.toLowerCase()));
    expect(new Set(all).size).toBe(all.length);
  });

  it('has no blank or padded names', () => {
    for (const entry of SUBJECT_CATALOG) {
      for (const name of [entry.category, ...entry.subjects]) expect(name).toMatch(/^\S(?:.*\S)?$/);
    }
  });
});

describe('DEFAULT_MODERATION_PATTERNS', () => {
  const compiled = DEFAULT_MODERATION_PATTERNS.map((entry) => ({
    ...entry,
    regex: new RegExp(entry.pattern, 'i'),
  }));
  const matching = (text: string) => compiled.filter((entry) => entry.regex.test(text));

  it('compiles every pattern as a case-insensitive JavaScript RegExp', () => {
    for (const { pattern } of DEFAULT_MODERATION_PATTERNS) {
      expect(() => new RegExp(pattern, 'i'), pattern).not.toThrow();
    }
  });

  it('uses known categories and no duplicate patterns', () => {
    for (const { category } of DEFAULT_MODERATION_PATTERNS) expect(MODERATION_CATEGORIES).toContain(category);
    const keys = DEFAULT_MODERATION_PATTERNS.map((entry) => `${entry.category}:${entry.pattern}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  const innocent = [
    'I need help with my class assignment',
    'Can you assess my essay?',
    'Scunthorpe United won the match',
    'The passage is about assassins in history',
    'We are reading Moby Dick and Great Expectations by Dickens',
    'Please compass the angle and pass the bass guitar',
    'The pilot sat in the cockpit; the peacock drank a cocktail',
    "I'll find you a good tutor for the exam",
    'Kill the process with Ctrl+C, then restart the server',
    'My laptop battery might just die during the exam',
    'I am going to kill it in the test tomorrow',
    'A flame retardant coating slows the reaction',
    'The shiitake mushroom is a fungus studied in biology',
    'Hancock and Essex are place names in the essay',
    'These skills help you analyse documents',
    'Your analysis of the therapist case study was great',
    'Sussex University offers a grassroots mathematics programme',
    'Hello, can we schedule a session on Saturday?',
    'Check the white power cable of the oscilloscope',
    'This is a titration with a 0.1 M solution',
    'Chapter 12: the Hitler Youth and propaganda in the 1930s',
  ];

  it.each(innocent)('lets an innocent sentence through: %s', (sentence) => {
    expect(matching(sentence).map((entry) => entry.pattern)).toEqual([]);
  });

  const offensive: [string, (typeof MODERATION_CATEGORIES)[number]][] = [
    ['kill yourself', 'harassment'],
    ['just KILL YOURSELF already', 'harassment'],
    ['kys loser', 'harassment'],
    ["I'll kill you", 'harassment'],
    ['i know where you live', 'harassment'],
    ['you are worthless', 'harassment'],
    ['send me nudes', 'harassment'],
    ['what the fuck', 'offensive'],
    ['this is bullshit', 'offensive'],
    ['you asshole', 'offensive'],
    ['stfu', 'offensive'],
    ['heil hitler', 'hate_speech'],
    ['go back to your country', 'hate_speech'],
  ];

  it.each(offensive)('blocks %s as %s', (sentence, category) => {
    expect(matching(sentence).map((entry) => entry.category)).toContain(category);
  });
});
