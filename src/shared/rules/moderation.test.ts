import { describe, expect, it } from 'vitest';
import type { ModerationCategory } from '../constants.ts';
import { checkMessage, moderationMessages, type PatternMatcher } from './moderation.ts';

/** A stand-in for a database pattern as the server compiles it (src/server/features/moderation tests the real ones). */
const matcher = (category: ModerationCategory, source: string): PatternMatcher => ({
  category,
  findMatch(text) {
    const match = new RegExp(source, 'i').exec(text);
    return match ? { start: match.index, end: match.index + match[0].length } : null;
  },
});
const patterns = [
  matcher('offensive', '\\b(?:idiot|moron)s?\\b'),
  matcher('hate_speech', '\\b(?:vermin|subhuman)\\b'),
  matcher('harassment', '\\bkill\\s*yourself\\b'),
  matcher('other', '\\bbuy\\s+followers\\b'),
];
const ownOrigins = ['https://virtualhelp.example', 'http://localhost:3000'];
const check = (text: string) => checkMessage(text, { patterns, ownOrigins });

const shouldBlock: Array<[string, ModerationCategory]> = [
  // Phone numbers: digits, groups, international, brackets
  ['Call me on 0791234567', 'phone'],
  ['my number: 079 123 45 67', 'phone'],
  ['+41 79 123 45 67', 'phone'],
  ['(555) 123-4567', 'phone'],
  ['555-123-4567 anytime', 'phone'],
  ['555.123.4567', 'phone'],
  ['reach me at 5551234567', 'phone'],
  ['1-800-555-0199', 'phone'],
  ['0041 79 123 45 67', 'phone'],
  // Phone numbers: obfuscated and spelled
  ['5 5 5-1 2 3-4 5 6 7', 'phone'],
  ['0 7 9 1 2 3', 'phone'],
  ['call me at 079 123', 'phone'],
  ['whatsapp 079 12 34', 'phone'],
  ['five five five one two three four', 'phone'],
  ['five5five 123 4567', 'phone'],
  ['Five Five Five - One Two Three - Four Five Six Seven', 'phone'],
  ['zero seven nine one two three four five six seven', 'phone'],
  ['5five5-1two3-4five67', 'phone'],
  ['0 7 9 . 1 2 3 . 4 5 . 6 7', 'phone'],
  ['text me 079/123 45 67', 'phone'],
  ['079_123_45_67', 'phone'],
  ['555\u200b123\u200b4567', 'phone'],
  ['tel: 044 123 45 67', 'phone'],
  ['call me 555 1234', 'phone'],
  // E-mail addresses
  ['write to john.doe@gmail.com please', 'email'],
  ['JOHN@EXAMPLE.CH', 'email'],
  ['john at gmail dot com', 'email'],
  ['john(at)gmail(dot)com', 'email'],
  ['john [at] gmail [dot] com', 'email'],
  ['john @ gmail . com', 'email'],
  ['john at gmail.com', 'email'],
  ['anna {at} uni-bern {dot} ch', 'email'],
  ['my email is john.doe at outlook dot com', 'email'],
  // External links
  ['see https://example.com/page', 'link'],
  ['http://evil.test/x', 'link'],
  ['www.example.org', 'link'],
  ['go to example.com', 'link'],
  ['Example.com has the answers', 'link'],
  ['bit.ly/x', 'link'],
  ['my site is tutor-anna.ch/prices', 'link'],
  ['visit example dot com', 'link'],
  ['https://virtualhelp.example@evil.com/login', 'link'],
  ['https://virtualhelp.example.evil.com/', 'link'],
  ['look at google.com', 'link'],
  ['ftp://files.example.net/notes', 'link'],
  // Database patterns, by category
  ['you are an idiot', 'offensive'],
  ['They are vermin', 'hate_speech'],
  ['go kill yourself', 'harassment'],
  ['buy followers here', 'other'],
];

const shouldPass: string[] = [
  // Prices and budgets
  'I can do it for $15',
  'I can do it for 12.50',
  'My budget is 8-15 USD',
  'It costs CHF 1,250.00 for the semester',
  // Dates and times
  'The exam is on 2024-03-18',
  'Due 18.03.2024 at midnight',
  'Due 03/18/2024',
  'See you March 18',
  'Can we meet at 10:30?',
  'I am free 10am-12pm',
  'Lessons 10:30-11:45 and 14:00-15:30',
  'the 2023-2024 school year',
  'On 2024-03-18 10 students came',
  'Holidays 2024-03-18/2024-03-25',
  'Lessons 07.30-09.45',
  // Math
  '2+2=4',
  'x^2 + 3x - 10 = 0',
  'solve 3x + 5 = 20',
  '2^20 = 1048576',
  'The answer is 1048576',
  '10! = 3628800',
  'pi is about 3.14159265',
  '355/113 is close to pi',
  'A million is 1 000 000',
  'the primes 2, 3, 5, 7, 11, 13',
  // Course codes, pages, chapters, versions, years
  'I am taking MATH 101',
  'CS50 is hard',
  'ECON-2010 midterm',
  'Read pages 120-135',
  'chapter 4, section 3.2.1',
  'version 2.0',
  'Python 3.12 is installed',
  'I graduated in 2019 and started in 2020',
  'The years 1999 2000',
  'Question 5: 12345',
  'ISBN 978-3-16-148410-0',
  'Room 101, floor 3',
  // Files, tech names and sentence punctuation that look like domains
  'I attached essay.docx',
  'notes.md and main.py are in the zip',
  'Node.js and ASP.NET',
  'I finished it.Me too',
  'ok.to be fair',
  'e.g. this one, i.e. that one',
  'the dot-com bubble',
  // Words that contain spelled digits or "at"
  'Someone said none of the stones were gone',
  'Oh, one more question',
  'I am good at math',
  "I'm at home. It's late",
  'Meet at school. Come early',
  'Look at this vector dot product',
  // Our own origin
  'Download it from https://virtualhelp.example/api/chat/files/5d0c2c4a-1111-4222-8333-123456789012',
  'http://localhost:3000/chat',
  // Plain text and emoji
  'Thanks! 😊 See you tomorrow',
  'Can you help me with class assignments?',
];

describe('checkMessage', () => {
  it('has a table of at least 60 phrases', () => {
    expect(shouldBlock.length + shouldPass.length).toBeGreaterThanOrEqual(60);
  });

  it.each(shouldBlock)('blocks %j as %s', (text, category) => {
    const result = check(text);
    expect(result).toMatchObject({ ok: false, category, message: moderationMessages[category] });
    if (!result.ok) {
      expect(result.matches.length).toBeGreaterThan(0);
      for (const { start, end } of result.matches) {
        expect(start).toBeGreaterThanOrEqual(0);
        expect(end).toBeLessThanOrEqual(text.length);
        expect(end).toBeGreaterThan(start);
      }
    }
  });

  it.each(shouldPass)('lets %j pass', (text) => {
    expect(check(text)).toEqual({ ok: true });
  });

  it('marks exactly the offending parts', () => {
    const text = 'ring 079 123 45 67 or +41 79 765 43 21 tomorrow';
    const result = check(text);
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.matches.map(({ start, end }) => text.slice(start, end))).toEqual([
        '079 123 45 67',
        '+41 79 765 43 21',
      ]);
  });

  it('reports a phone number before an address, and an address before a link', () => {
    expect(check('mail john@gmail.com or see example.com or call 0791234567')).toMatchObject({ category: 'phone' });
    expect(check('mail john@gmail.com or see example.com')).toMatchObject({ category: 'email' });
  });

  it('does not read an address’s domain as a link', () => {
    const result = check('john@gmail.com');
    expect(result).toMatchObject({ category: 'email', matches: [{ start: 0, end: 14 }] });
  });

  it('finds a match at the start of a text right after one at the end of a longer text', () => {
    // The rules' regular expressions are global and shared between checks: none may start where the last one ended.
    expect(check('a long sentence that ends with an idiot')).toMatchObject({ category: 'offensive' });
    expect(check('idiot')).toMatchObject({ category: 'offensive', matches: [{ start: 0, end: 5 }] });
    expect(check('See www.example.com/a/long/path/to/a/page')).toMatchObject({ category: 'link' });
    expect(check('www.x.com')).toMatchObject({ category: 'link', matches: [{ start: 0, end: 9 }] });
  });

  it('reads no database pattern once a built-in rule has refused the text', () => {
    const read: string[] = [];
    const spy: PatternMatcher = { category: 'offensive', findMatch: (text) => (read.push(text), null) };
    expect(checkMessage('call 0791234567', { patterns: [spy], ownOrigins })).toMatchObject({ category: 'phone' });
    expect(read).toEqual([]);
    expect(checkMessage('hello there', { patterns: [spy], ownOrigins })).toEqual({ ok: true });
    expect(read).toEqual(['hello there']);
  });

  it('applies patterns filed under phone, e-mail and link, before the other categories', () => {
    const filed = [
      matcher('other', 'telegram'),
      matcher('link', 'dot\\s+ninja'),
      matcher('phone', 'zero\\s+seven\\s+nine'),
      matcher('email', 'my\\s+mailbox'),
    ];
    const result = checkMessage('zero seven nine, or telegram', { patterns: filed, ownOrigins });
    expect(result).toEqual({
      ok: false,
      category: 'phone',
      message: moderationMessages.phone,
      matches: [{ start: 0, end: 15 }],
    });
    expect(checkMessage('ask my mailbox', { patterns: filed, ownOrigins })).toMatchObject({ category: 'email' });
    expect(checkMessage('mysite dot ninja', { patterns: filed, ownOrigins })).toMatchObject({ category: 'link' });
    expect(checkMessage('on telegram', { patterns: filed, ownOrigins })).toMatchObject({ category: 'other' });
  });
});
