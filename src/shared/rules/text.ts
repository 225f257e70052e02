/** The first `length` characters, plus "…" when the text was longer (notification 100, job card 180). */
export function truncateText(text: string, length: number) {
  const characters = Array.from(text);
  return characters.length > length ? `${characters.slice(0, length).join('').trimEnd()}…` : text;
}

/** The text with the characters HTML gives a meaning (& < > " ') written as character references. */
export function escapeHtml(text: string) {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/**
 * Where in an input (a string, or plain objects and arrays of them) the first NUL character (U+0000) sits, as a
 * path of keys; undefined when there is none. PostgreSQL text cannot hold that character, so input carrying it is
 * refused as a whole rather than failing at the database. Anything else (an uploaded file) is not looked into.
 */
export function pathToNulCharacter(input: unknown, path: readonly PropertyKey[] = []): PropertyKey[] | undefined {
  if (typeof input === 'string') return input.includes('\u0000') ? [...path] : undefined;
  if (Array.isArray(input)) {
    for (const [index, item] of input.entries()) {
      const found = pathToNulCharacter(item, [...path, index]);
      if (found) return found;
    }
    return undefined;
  }
  if (input === null || typeof input !== 'object') return undefined;
  // Plain data only: an object literal, or one with an empty prototype of its own (the query-string parser's).
  const prototype: object | null = Object.getPrototypeOf(input) as object | null;
  if (prototype !== null && prototype !== Object.prototype && Object.getPrototypeOf(prototype) !== null) {
    return undefined;
  }
  for (const [key, value] of Object.entries(input)) {
    const found = key.includes('\u0000') ? [...path, key] : pathToNulCharacter(value, [...path, key]);
    if (found) return found;
  }
  return undefined;
}
