import { describe, expect, it } from 'vitest';
import { aiQuestionType } from './ai-question-type.ts';

describe('aiQuestionType', () => {
  it('is math when one of the words appears, in any case and inside longer words', () => {
    expect(aiQuestionType('solve 2x + 3 = 7')).toBe('math');
    expect(aiQuestionType('Can you SOLVE this?')).toBe('math');
    expect(aiQuestionType('I solved it but am unsure')).toBe('math');
    expect(aiQuestionType('help with my math homework')).toBe('math');
    expect(aiQuestionType('Mathematics is hard')).toBe('math');
    expect(aiQuestionType('what is an equation')).toBe('math');
    expect(aiQuestionType('Equations of motion')).toBe('math');
  });

  it('is math for a run of three or more digits or operator characters', () => {
    expect(aiQuestionType('what is 15% of 240')).toBe('math');
    expect(aiQuestionType('2+3')).toBe('math');
    expect(aiQuestionType('x^2=4')).toBe('math');
    expect(aiQuestionType('3*-2')).toBe('math');
    expect(aiQuestionType('year 1999')).toBe('math');
    expect(aiQuestionType('--- notes ---')).toBe('math');
  });

  it('is general for shorter runs, runs broken by spaces, and plain questions', () => {
    expect(aiQuestionType('what is photosynthesis?')).toBe('general');
    expect(aiQuestionType('chapter 12')).toBe('general');
    expect(aiQuestionType('2 + 3')).toBe('general');
    expect(aiQuestionType('x^2')).toBe('general');
    expect(aiQuestionType('a*-b')).toBe('general');
    expect(aiQuestionType('1.5 and 2.5')).toBe('general');
    expect(aiQuestionType('solv e')).toBe('general');
    expect(aiQuestionType('')).toBe('general');
  });
});
