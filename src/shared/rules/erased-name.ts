import { DELETED_USER_NAME } from '../schemas/account-deletion.ts';

// How an erased person's name leaves the texts other people keep (decision 0062): their notices, and the mails and
// pushes waiting for them or kept after sending. A username is any word of lowercase letters and digits, so it may
// also be a word of the text's own make-up ("https", "html", "title", "begin"): that make-up is left as it is.

/** What named the person: their username and address, and the address the erased row now has. */
export type ErasedName = { username: string; email: string; erasedEmail: string };

/** How a stored text is made: plain, HTML or iCalendar (a meeting's invitation). */
export type StoredTextFormat = 'text' | 'html' | 'calendar';

const URL = String.raw`https?://[^\s"'<>\\]+`;
/** The parts of a text of each format that are its make-up, not its words: never rewritten for a username. */
const MAKE_UP: Record<Exclude<StoredTextFormat, 'calendar'>, RegExp> = {
  text: new RegExp(URL, 'gi'),
  html: new RegExp(String.raw`<[^>]*>|&#?[a-z0-9]+;|${URL}`, 'gi'),
};
/** An invitation's properties whose values are words, and the parameter that names a person. */
const CALENDAR_TEXT_PROPERTY = /^(?:SUMMARY|DESCRIPTION|LOCATION|COMMENT)(?:;[^:\r\n]*)?:/;
const CALENDAR_NAME_PARAMETER = /(;CN=)("[^"]*"|[^;:\r\n]*)/g;

/** A character of Unicode's private use, which no stored text holds. */
const ADDRESS_MARK = '\uE000';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The address on its own: not the tail of a longer one (joann@… for ann@…) nor the head of one (…@x.com.au). */
const addressPattern = (email: string) =>
  new RegExp(String.raw`(?<![\w.%+-])${escapeRegExp(email)}(?![\w-]|\.\w)`, 'gi');

/** `text` with the username, as a whole word of any case, read "Deleted user" outside the parts `makeUp` matches. */
function replaceInWords(text: string, makeUp: RegExp, username: string) {
  const word = new RegExp(String.raw`(?<!\w)${escapeRegExp(username)}(?!\w)`, 'gi');
  let rewritten = '';
  let from = 0;
  for (const part of text.matchAll(makeUp)) {
    rewritten += text.slice(from, part.index).replace(word, DELETED_USER_NAME) + part[0];
    from = part.index + part[0].length;
  }
  return rewritten + text.slice(from).replace(word, DELETED_USER_NAME);
}

/** An invitation's lines: the words of its text properties (folded lines with them) and the names of people. */
function replaceInCalendar(text: string, username: string) {
  let inTextProperty = false;
  return text
    .split(/(\r?\n)/)
    .map((line) => {
      if (line === '\n' || line === '\r\n') return line;
      const folded = /^[ \t]/.test(line);
      const property = folded ? null : CALENDAR_TEXT_PROPERTY.exec(line);
      if (!folded) inTextProperty = property !== null;
      if (inTextProperty) {
        const head = property?.[0] ?? '';
        return head + replaceInWords(line.slice(head.length), MAKE_UP.text, username);
      }
      return line.replace(
        CALENDAR_NAME_PARAMETER,
        (_, parameter: string, value: string) => parameter + replaceInWords(value, MAKE_UP.text, username),
      );
    })
    .join('');
}

/**
 * `text` without the person: their address, wherever it stands, reads the erased row's (still an address); their
 * username, in the words of the text but not its make-up, reads "Deleted user".
 */
export function withoutName(text: string, format: StoredTextFormat, name: ErasedName) {
  // The address is held by a mark of its own while the username goes, whose word ("erased", "invalid") it may hold.
  const addressFree = text.replace(addressPattern(name.email), ADDRESS_MARK);
  const nameless =
    format === 'calendar'
      ? replaceInCalendar(addressFree, name.username)
      : replaceInWords(addressFree, MAKE_UP[format], name.username);
  return nameless.replaceAll(ADDRESS_MARK, name.erasedEmail);
}
