import { describe, expect, it } from 'vitest';
import { notificationText, pathToNulCharacter, truncateText } from './text.ts';

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

describe('pathToNulCharacter', () => {
  it('names the key path to the first string holding U+0000, in values and in keys', () => {
    expect(pathToNulCharacter('a\u0000b')).toEqual([]);
    expect(pathToNulCharacter({ body: 'fine', nested: { list: ['ok', 'bad\u0000'] } })).toEqual(['nested', 'list', 1]);
    expect(pathToNulCharacter({ 'key\u0000': 1 })).toEqual(['key\u0000']);
    expect(pathToNulCharacter(Object.assign(Object.create(null) as object, { q: '\u0000' }))).toEqual(['q']);
    const QueryObject = function () {} as unknown as new () => object;
    QueryObject.prototype = Object.create(null);
    expect(pathToNulCharacter(Object.assign(new QueryObject(), { q: '\u0000' }))).toEqual(['q']);
  });

  it('passes text without it, other values, objects that are not plain data, and what it is told to skip', () => {
    expect(pathToNulCharacter({ body: '%00 \\0 \u202e\ud800', n: 0, b: false, none: null })).toBeUndefined();
    expect(pathToNulCharacter(undefined)).toBeUndefined();
    expect(pathToNulCharacter({ file: Buffer.from([0]), when: new Date(0) })).toBeUndefined();
    class Named {
      name = 'a\u0000';
    }
    expect(pathToNulCharacter({ file: new Named() })).toBeUndefined();
    const upload = { filename: 'a\u0000.pdf', bytes: Buffer.from([0]) };
    expect(pathToNulCharacter({ upload })).toEqual(['upload', 'filename']);
    expect(pathToNulCharacter({ upload }, { skip: (value) => value === upload })).toBeUndefined();
  });

  it('reads input nested deeper than a call stack would allow', () => {
    let nested: unknown = 'bottom\u0000';
    for (let depth = 0; depth < 100_000; depth++) nested = [nested];
    expect(pathToNulCharacter(nested)).toHaveLength(100_000);
    expect(pathToNulCharacter(JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`))).toBeUndefined();
  });
});

describe('notificationText', () => {
  it('keeps up to 50 characters and cuts longer texts to 47 plus "..."', () => {
    expect(notificationText('Hello')).toBe('Hello');
    expect(notificationText('a'.repeat(50))).toBe('a'.repeat(50));
    expect(notificationText('a'.repeat(51))).toBe(`${'a'.repeat(47)}...`);
    expect(notificationText('a'.repeat(51))).toHaveLength(50);
  });
});
