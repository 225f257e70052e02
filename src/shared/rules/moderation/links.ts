import { END_OF_WORD, SPELLED_DOT } from './email-addresses.ts';
import { allMatches, overlapsAny, type ModerationMatch } from './spans.ts';

// Links: anything with a scheme (https://…), anything starting with www., a bare domain whose last label is a
// top-level domain people link to ("example.com", "bit.ly/x"), and spelled-out domains ("example dot com").
// A file name is not a link: the top-level domains below leave out the ones that are common file extensions
// (zip, mov, md, py, rs, sh, pl, cc, ai…), so "essay.docx", "notes.md" and "main.py" pass, and the ones that are
// English words (to, in, it, at, be, me, us), so a missing space ("ok.to be fair") is not a domain; for the same
// reason the top-level domain must be lower case ("…done it.Me too"). Those domains are still caught with a
// scheme or www.

const LINK_TLD = [
  'com',
  'net',
  'org',
  'edu',
  'gov',
  'info',
  'biz',
  'io',
  'co',
  'app',
  'dev',
  'xyz',
  'online',
  'site',
  'store',
  'tech',
  'blog',
  'shop',
  'live',
  'club',
  'top',
  'link',
  'page',
  'ly',
  'gl',
  'gg',
  'tk',
  'ws',
  'tv',
  'ch',
  'de',
  'uk',
  'fr',
  'es',
  'nl',
  'li',
  'ca',
  'au',
  'ru',
  'cn',
  'jp',
  'br',
  'eu',
].join('|');
/** Technology names written like domains. */
const NOT_A_LINK = new Set(['asp.net', 'ado.net', 'vb.net']);
const TRAILING_PUNCTUATION = /[.,;:!?)\]}'"»]+$/;

/** The first two of LINK_PATTERNS: scheme and www. */
const EXPLICIT_LINK_PATTERNS = 2;
const LINK_PATTERNS = [
  /(?<![\p{L}\p{N}])[a-z][a-z0-9+.-]{1,15}:\/\/[^\s<>"']+/giu,
  /(?<![\p{L}\p{N}.@-])www\d{0,3}\.[^\s<>"']+/giu,
  new RegExp(
    String.raw`(?<![\p{L}\p{N}._%+@/-])(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+(?:${LINK_TLD})(?![\p{L}\p{N}-])(?::\d{1,5})?(?:[/?#][^\s<>"']*)?`,
    'gu',
  ),
  new RegExp(
    String.raw`(?<![\p{L}\p{N}])[A-Za-z0-9-]{2,63}${SPELLED_DOT}(?:com|net|org|io|co|ly|ch|de|uk)${END_OF_WORD}`,
    'giu',
  ),
];

/** `explicit`: written with a scheme or www., so unmistakably a link. */
export type Link = ModerationMatch & { host: string; explicit: boolean };

export function findLinks(text: string): Link[] {
  const links: Link[] = [];
  LINK_PATTERNS.forEach((regex, index) => {
    for (const match of allMatches(text, regex)) {
      const value = match[0].replace(TRAILING_PUNCTUATION, '');
      if (NOT_A_LINK.has(value.toLowerCase())) continue;
      const span = { start: match.index, end: match.index + value.length };
      if (!overlapsAny(span, links))
        links.push({ ...span, host: hostOf(value), explicit: index < EXPLICIT_LINK_PATTERNS });
    }
  });
  return links.sort((a, b) => a.start - b.start);
}

/** The hosts of our own origins, parsed once per list (the server passes the same one with every message). */
const ownHostSets = new WeakMap<readonly string[], ReadonlySet<string>>();
export function hostsOf(origins: readonly string[]) {
  let hosts = ownHostSets.get(origins);
  if (!hosts) {
    hosts = new Set(origins.map(hostOf));
    ownHostSets.set(origins, hosts);
  }
  return hosts;
}

/** The host (with port) of a URL, "www.…" or bare domain, lower case; "" when there is none. */
function hostOf(value: string) {
  try {
    return new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`).host.toLowerCase();
  } catch {
    return '';
  }
}
