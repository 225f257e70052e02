import type { RequestDraft } from '../schemas/guru.ts';

// "Ask a tutor" under a Guru AI reply: the question becomes a request draft with a subject guessed from its words.

/** Words that point at one subject of the catalogue, checked in this order (calculus before algebra: both solve). */
const SUBJECT_HINTS: [subject: string, pattern: RegExp][] = [
  ['Calculus', /\b(derivative|differentiate|integra(l|te)|antiderivative|limit|d\/dx)\b|∫/i],
  ['Trigonometry', /\b(sin|cos|tan|sec|csc|cot|trigonometr\w*|angle)\b/i],
  ['Statistics', /\b(mean|median|mode|variance|standard deviation|statistic\w*)\b/i],
  ['Probability', /\b(probability|dice|odds)\b/i],
  ['Geometry', /\b(triangle|circle|area|perimeter|volume|polygon|geometry)\b/i],
  ['Algebra', /\b(solve|equation|factor|expand|simplify|polynomial|quadratic)\b|[a-z]\s*\^|\d\s*[a-z]\b|=/i],
  ['Arithmetic', /%|\bpercent\b|\d\s*[+\-*/×÷]\s*\d/i],
];

const DESCRIPTION_MAX = 5000;

/** The catalogue subject a question is about: a subject named in it, else one its words point at; null if unsure. */
export function guessSubject(question: string, subjectNames: readonly string[]): string | null {
  const lower = question.toLowerCase();
  const named = [...subjectNames]
    .sort((a, b) => b.length - a.length) // "Organic Chemistry" before "Chemistry"
    .find((name) => new RegExp(`\\b${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'i').test(lower));
  if (named) return named;
  const hinted = SUBJECT_HINTS.find(([subject, pattern]) => subjectNames.includes(subject) && pattern.test(question));
  return hinted?.[0] ?? null;
}

/** A reply's Markdown and LaTeX as plain text a tutor reads in a request description. */
function plainReply(reply: string): string {
  return reply
    .replace(/\$\$([\s\S]*?)\$\$/g, '$1')
    .replace(/\$([^$\n]+)\$/g, '$1')
    .replace(/\*\*([^*]+)\*\*/g, '$1')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The draft the request form opens with: the question, what Guru AI answered, and the question's photo. */
export function buildRequestDraft({
  question,
  reply,
  photo,
  subjectNames,
}: {
  question: string;
  reply: string;
  photo: RequestDraft['photo'];
  subjectNames: readonly string[];
}): RequestDraft {
  const asked = question.trim() || (photo ? 'My question is in the attached photo.' : '');
  const description = `My question: ${asked}\n\nWhat Guru AI tried:\n${plainReply(reply)}\n\nI would like a tutor to explain it.`;
  return {
    subjectName: guessSubject(question, subjectNames),
    description: description.length > DESCRIPTION_MAX ? `${description.slice(0, DESCRIPTION_MAX - 1)}…` : description,
    photo,
  };
}
