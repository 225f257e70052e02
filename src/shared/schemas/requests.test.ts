import { describe, expect, it } from 'vitest';
import { MIB } from '#shared/constants.ts';
import {
  attachmentListSchema,
  attachmentMessages,
  createRequestSchema,
  placeBidSchema,
  wizardRequestToInput,
} from './requests.ts';
import { z } from 'zod';

const subjectId = '7d0f4f38-2f59-4b8e-9d8f-3e8f1b5f2a11';
const valid = {
  type: 'tutoring',
  subjectId,
  description: 'I need help with fractions',
  budgetMinCents: 800,
  budgetMaxCents: 1500,
};
const future = new Date(Date.now() + 24 * 60 * 60 * 1000).toISOString();

/** The first message for each field of a failed parse. */
function messages(result: z.ZodSafeParseResult<unknown>) {
  const fields: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) fields[issue.path.join('.')] ??= issue.message;
  return fields;
}

describe('createRequestSchema', () => {
  it('accepts a valid standard form and fills an assignment’s missing maximum with $9999 (999900 cents)', () => {
    expect(createRequestSchema.parse(valid)).toMatchObject(valid);
    const assignment = createRequestSchema.parse({
      ...valid,
      type: 'assignment',
      budgetMinCents: 500,
      budgetMaxCents: undefined,
      deadline: future,
    });
    expect(assignment.budgetMaxCents).toBe(999_900);
    expect(createRequestSchema.parse({ ...valid, budgetMaxCents: undefined }).budgetMaxCents).toBe(1500);
  });

  it.each([
    ['type', { type: 'lesson' }, 'Please choose a request type'],
    ['subjectId', { subjectId: 'maths' }, 'Please choose a subject'],
    ['description', { description: 'too short' }, 'Description must be at least 10 characters'],
    ['description', { description: '     short      ' }, 'Description must be at least 10 characters'],
    ['budgetMinCents', { budgetMinCents: -100 }, 'Budget must be 0 or more'],
    ['budgetMaxCents', { budgetMaxCents: -100 }, 'Budget must be 0 or more'],
    [
      'budgetMaxCents',
      { budgetMinCents: 1200, budgetMaxCents: 1000 },
      'Maximum budget must be greater than or equal to minimum budget',
    ],
    ['budgetMinCents', { budgetMinCents: 700 }, 'Budget must be within allowed range for the selected request type'],
    ['budgetMaxCents', { budgetMaxCents: 1600 }, 'Budget must be within allowed range for the selected request type'],
    [
      'budgetMaxCents',
      { type: 'assignment', budgetMinCents: 500, budgetMaxCents: 500_100 },
      'Budget must be within allowed range for the selected request type',
    ],
    [
      'budgetMinCents',
      { type: 'assignment', budgetMinCents: 400, budgetMaxCents: 10_000 },
      'Budget must be within allowed range for the selected request type',
    ],
    ['deadline', { deadline: 'tomorrow' }, 'Please enter a valid deadline'],
    ['deadline', { deadline: '2020-01-01T10:00:00Z' }, 'Deadline must be in the future'],
    ['level', { level: 'kindergarten' }, 'Please choose an education level'],
    ['supportType', { supportType: 'homework' }, 'Please choose exam preparation or general support'],
  ])('refuses a bad %s with its message', (field, change, message) => {
    expect(messages(createRequestSchema.safeParse({ ...valid, ...change }))).toEqual({ [field]: message });
  });

  it('allows the open-ended assignment maxima and trims optional texts to nothing', () => {
    expect(
      createRequestSchema.safeParse({ ...valid, type: 'assignment', budgetMinCents: 500, budgetMaxCents: 99_900 })
        .success,
    ).toBe(true);
    const parsed = createRequestSchema.parse({ ...valid, topic: '  ', requirements: ' Show the steps ', schedule: '' });
    expect(parsed).toMatchObject({ topic: undefined, requirements: 'Show the steps', schedule: undefined });
  });
});

describe('wizardRequestToInput', () => {
  it('maps the tutoring answers onto the request fields with a written description', () => {
    const input = wizardRequestToInput({
      type: 'tutoring',
      level: 'high_school',
      subjectId,
      topic: 'Quadratic equations',
      supportType: 'exam_prep',
      schedule: 'Weekday evenings',
    });
    expect(input).toEqual({
      type: 'tutoring',
      subjectId,
      level: 'high_school',
      topic: 'Quadratic equations',
      supportType: 'exam_prep',
      schedule: 'Weekday evenings',
      description: 'Tutoring in Quadratic equations (exam preparation). Preferred schedule: Weekday evenings.',
      budgetMinCents: 800,
      budgetMaxCents: 1500,
    });
    expect(createRequestSchema.safeParse(input).success).toBe(true);
  });

  it('maps the assignment answers with the wizard budgets: entered, empty ($9999) or skipped ($999)', () => {
    const answers = {
      type: 'assignment',
      topic: 'Lab report',
      subjectId,
      level: 'undergraduate',
      deadline: future,
    } as const;
    expect(wizardRequestToInput({ ...answers, budgetMaxCents: 8000, budgetSkipped: false })).toMatchObject({
      budgetMinCents: 500,
      budgetMaxCents: 8000,
      description: 'Assignment help: Lab report.',
      deadline: future,
    });
    expect(wizardRequestToInput({ ...answers, budgetMaxCents: null, budgetSkipped: false })).toMatchObject({
      budgetMaxCents: 999_900,
    });
    const skipped = wizardRequestToInput({ ...answers, budgetMaxCents: 8000, budgetSkipped: true });
    expect(skipped).toMatchObject({ budgetMaxCents: 99_900 });
    expect(createRequestSchema.safeParse(skipped).success).toBe(true);
  });
});

describe('placeBidSchema', () => {
  it.each([0, -500, 1000.5, Number.NaN, '1200', undefined, 100_000_001])(
    'refuses the amount %s (cents) with "Please enter a valid bid amount."',
    (amountCents) => {
      expect(messages(placeBidSchema.safeParse({ amountCents }))).toEqual({
        amountCents: 'Please enter a valid bid amount.',
      });
    },
  );

  it('trims the message and stores an empty one as null', () => {
    expect(placeBidSchema.parse({ amountCents: 1000, message: '  I can help  ' })).toEqual({
      amountCents: 1000,
      message: 'I can help',
    });
    expect(placeBidSchema.parse({ amountCents: 1000, message: '   ' })).toEqual({ amountCents: 1000, message: null });
    expect(placeBidSchema.parse({ amountCents: 1 })).toEqual({ amountCents: 1, message: null });
  });
});

describe('attachment rules', () => {
  const file = z.custom<{ size: number; type: string }>();
  const list = attachmentListSchema(file);
  const pdf = { size: 1000, type: 'application/pdf' };

  it('accepts up to 10 images and documents of at most 10 MB', () => {
    expect(list.safeParse(Array(10).fill(pdf)).success).toBe(true);
    expect(
      list.safeParse([
        { size: 10 * MIB, type: 'image/png' },
        { size: 5, type: 'text/plain' },
      ]).success,
    ).toBe(true);
  });

  it('refuses too many, too large and other files with the SPEC messages', () => {
    expect(list.safeParse(Array(11).fill(pdf)).error?.issues[0]?.message).toBe(
      'Maximum files reached - You can only upload up to 10 files.',
    );
    expect(list.safeParse([{ size: 12.34 * MIB, type: 'application/pdf' }]).error?.issues[0]?.message).toBe(
      'File too large - Maximum file size is 10MB. Your file is 12.3 MB.',
    );
    expect(list.safeParse([{ size: 10 * MIB + 1, type: 'application/pdf' }]).error?.issues[0]?.message).toBe(
      'File too large - Maximum file size is 10MB. Your file is over 10 MB.',
    );
    expect(list.safeParse([{ size: 10, type: 'text/html' }]).error?.issues[0]?.message).toBe(
      'Invalid file type - Only images and documents are allowed.',
    );
    expect(attachmentMessages.tooLarge(20 * MIB)).toContain('Your file is 20.0 MB.');
  });
});
