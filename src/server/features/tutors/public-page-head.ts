import { paths } from '#shared/paths.ts';
import { escapeHtml } from '#shared/rules/text.ts';
import type { TutorProfile } from '#shared/schemas/reviews.ts';

// What a search engine and a link preview read of a tutor's public page: title, description, canonical address, Open
// Graph tags and a schema.org Person with its AggregateRating in JSON-LD.

const SITE_NAME = 'Virtual Help';
/** Search results cut a description at about this many characters. */
const DESCRIPTION_MAX = 160;

/**
 * JSON inside a <script> element: `<`, `>` and `&` written as \u escapes (the same string to a JSON reader), so that no
 * text a tutor wrote can end the element ("</script>") or open a comment; U+2028 and U+2029 too, for old readers.
 */
export function scriptSafeJson(value: unknown) {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

const shorten = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`);

/** The tutor's headline, else their subjects, then their rating: one line for search results and previews. */
function describe(tutor: TutorProfile) {
  const subjects = tutor.specializations.map((subject) => subject.name).join(', ');
  const lead = tutor.headline ?? (subjects ? `Tutor in ${subjects}` : `Tutor on ${SITE_NAME}`);
  const rating =
    tutor.ratingAverage === null
      ? ''
      : ` Rated ${tutor.ratingAverage.toFixed(1)} out of 5 from ${tutor.reviewCount} ${tutor.reviewCount === 1 ? 'review' : 'reviews'}.`;
  const sentence = lead.replace(/\s+/g, ' ').trim();
  return shorten(`${sentence}${/[.!?]$/.test(sentence) ? '' : '.'}${rating}`, DESCRIPTION_MAX);
}

const absolute = (publicUrl: string, address: string) => new URL(address, `${publicUrl}/`).href;

/** The page's title, and the tags its head gets (each text escaped; the JSON-LD made safe inside its element). */
export function publicPageHead({ tutor, publicUrl }: { tutor: TutorProfile; publicUrl: string }) {
  const title = `${tutor.username} – Tutor on ${SITE_NAME}`;
  const description = describe(tutor);
  const url = absolute(publicUrl, paths.tutor.getHref(tutor.id));
  const image = tutor.image ? absolute(publicUrl, tutor.image) : null;
  const person = {
    '@context': 'https://schema.org',
    '@type': 'Person',
    name: tutor.username,
    url,
    description,
    jobTitle: 'Tutor',
    ...(image && { image }),
    knowsAbout: tutor.specializations.map((subject) => subject.name),
    ...(tutor.ratingAverage !== null && {
      aggregateRating: {
        '@type': 'AggregateRating',
        ratingValue: tutor.ratingAverage,
        reviewCount: tutor.reviewCount,
        bestRating: 5,
        worstRating: 1,
      },
    }),
  };
  const meta = (attribute: 'name' | 'property', key: string, content: string) =>
    `<meta ${attribute}="${key}" content="${escapeHtml(content)}">`;
  const head = [
    meta('name', 'description', description),
    `<link rel="canonical" href="${escapeHtml(url)}">`,
    meta('property', 'og:type', 'profile'),
    meta('property', 'og:site_name', SITE_NAME),
    meta('property', 'og:title', title),
    meta('property', 'og:description', description),
    meta('property', 'og:url', url),
    ...(image ? [meta('property', 'og:image', image)] : []),
    meta('property', 'profile:username', tutor.username),
    `<script type="application/ld+json">${scriptSafeJson(person)}</script>`,
  ].join('');
  return { title, head };
}
