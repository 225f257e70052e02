import { describe, expect, it } from 'vitest';
import { buildRequestDraft, guessSubject } from './guru-request-draft.ts';

const SUBJECTS = [
  'Arithmetic',
  'Algebra',
  'Geometry',
  'Trigonometry',
  'Calculus',
  'Statistics',
  'Chemistry',
  'Organic Chemistry',
  'Physics',
];

describe('guessSubject', () => {
  it.each([
    ['solve x^2 - 2x - 1 = 0', 'Algebra'],
    ['solve 2x + 3 = 7', 'Algebra'],
    ['factor x^2+5x+6', 'Algebra'],
    ['what is the derivative of x^3*sin(x)', 'Calculus'],
    ['integrate 3x^2', 'Calculus'],
    ['what is sin(30) in degrees', 'Trigonometry'],
    ['what is 15% of 240', 'Arithmetic'],
    ['12 * 7', 'Arithmetic'],
    ['area of a circle with radius 3', 'Geometry'],
    ['balance this organic chemistry reaction', 'Organic Chemistry'],
    ['a physics question about forces', 'Physics'],
  ])('%s → %s', (question, subject) => {
    expect(guessSubject(question, SUBJECTS)).toBe(subject);
  });

  it('is null when nothing points at a subject, or the subject is not in the catalogue', () => {
    expect(guessSubject('Who painted the Mona Lisa?', SUBJECTS)).toBeNull();
    expect(guessSubject('integrate 3x^2', ['Algebra'])).toBe('Algebra');
    expect(guessSubject('integrate sin(x)', ['Physics'])).toBeNull();
  });
});

describe('buildRequestDraft', () => {
  it('holds the question, the reply as plain text, the guessed subject and the photo', () => {
    const photo = { url: '/api/chat/files/5b0c6f4e-8f5a-4d53-a0e4-2a6f5f0f7a11', originalFilename: 'page.png' };
    const draft = buildRequestDraft({
      question: 'solve 2x + 3 = 7',
      reply: '$$x = 2$$\n\n**Steps**\n\n1. Subtract 3.\n\n**Answer:** x = 2',
      photo,
      subjectNames: SUBJECTS,
    });
    expect(draft.subjectName).toBe('Algebra');
    expect(draft.photo).toEqual(photo);
    expect(draft.description).toBe(
      'My question: solve 2x + 3 = 7\n\nWhat Guru AI tried:\nx = 2\n\nSteps\n\n1. Subtract 3.\n\nAnswer: x = 2\n\nI would like a tutor to explain it.',
    );
  });

  it('names the photo when the question was only a photo, and stays within the description limit', () => {
    const draft = buildRequestDraft({ question: '', reply: 'x'.repeat(6000), photo: null, subjectNames: SUBJECTS });
    expect(draft.description.length).toBe(5000);
    const photoOnly = buildRequestDraft({
      question: '',
      reply: 'Error Analyzing Image',
      photo: { url: '/api/chat/files/x', originalFilename: 'a.png' },
      subjectNames: SUBJECTS,
    });
    expect(photoOnly.description).toContain('My question: My question is in the attached photo.');
  });
});
