import { BACKGROUND_MESSAGE_TEXT_LENGTH } from '../constants.ts';
/** The first `length` characters, plus "…" when the text was longer (notification 100, job card 180). */
export function truncateText(text: string, length: number) {
  const characters = Array.from(text);
  return characters.length > length ? `${characters.slice(0, length).join('').trimEnd()}…` : text;
}

/** A message's text in a notification (SPEC.md §7): cut at 50 characters, 47 plus "...". */
export function notificationText(text: string) {
  return text.length > BACKGROUND_MESSAGE_TEXT_LENGTH
    ? `${text.slice(0, BACKGROUND_MESSAGE_TEXT_LENGTH - 3)}...`
    : text;
}

/** The text with the characters HTML gives a meaning (& < > " ') written as character references. */
export function escapeHtml(text: string) {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

type PathNode = { key: PropertyKey; parent: PathNode } | undefined;

function pathOf(node: PathNode) {
  const keys: PropertyKey[] = [];
  for (let at = node; at; at = at.parent) keys.push(at.key);
  return keys.reverse();
}

/** An object literal, or one with an empty prototype of its own (the query-string parser's): not a Buffer, a Date… */
function isPlainData(value: object) {
  const prototype = Object.getPrototypeOf(value) as object | null;
  return prototype === null || Object.getPrototypeOf(prototype) === null;
}

/**
 * Where in an input (a string, or arrays and plain objects of them) the first NUL character (U+0000) sits, in a
 * value or a key, as a path of keys; undefined when there is none. PostgreSQL text cannot hold that character, so
 * input carrying it is refused as a whole rather than failing at the database. Objects that are not plain data are
 * not looked into, nor those `skip` names. Walked without recursion: no nesting is too deep for it.
 */
export function pathToNulCharacter(
  input: unknown,
  { skip = () => false }: { skip?: (value: object) => boolean } = {},
): PropertyKey[] | undefined {
  const pending: { value: unknown; at: PathNode }[] = [{ value: input, at: undefined }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { value, at } = next;
    if (typeof at?.key === 'string' && at.key.includes('\u0000')) return pathOf(at);
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return pathOf(at);
      continue;
    }
    if (value === null || typeof value !== 'object' || skip(value)) continue;
    if (!Array.isArray(value) && !isPlainData(value)) continue;
    // Pushed last to first, so that they are looked at in order.
    const entries: [PropertyKey, unknown][] = Array.isArray(value) ? [...value.entries()] : Object.entries(value);
    for (let index = entries.length - 1; index >= 0; index--) {
      const [key, item] = entries[index]!;
      pending.push({ value: item, at: { key, parent: at } });
    }
  }
  return undefined;
}
