import { describe, expect, it } from 'vitest';
import { resolver } from './register-form-checks.ts';
import type { RegisterFormValues } from './register-form-schema.ts';

const options = { fields: {}, shouldUseNativeValidation: false } as const;
const subjects = [
  { id: '6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b', name: 'Algebra', category: 'Mathematics' },
  { id: '4b0c6f43-5b7e-4c8a-9d2e-1f3a5c7e9b10', name: 'Chemistry', category: 'Sciences' },
];
const student: RegisterFormValues = {
  name: 'ada',
  email: 'ada@example.com',
  password: 'Secret-123',
  role: 'student',
  specializations: [],
  acceptTerms: true,
  acceptPrivacy: true,
  confirmAge: true,
};

describe('the registration form checks', () => {
  it('accepts a complete student, handing on only what the server takes', async () => {
    const result = await resolver(student, { subjects }, options);
    expect(result.errors).toEqual({});
    expect(result.values).toMatchObject({ name: 'ada', email: 'ada@example.com', role: 'student' });
  });

  it("names every problem at once, a teacher's subjects included", async () => {
    const teacher = {
      ...student,
      name: 'A',
      role: 'teacher' as const,
      specializations: subjects.map((subject) => subject.id),
      acceptTerms: false,
    };
    const result = await resolver(teacher, { subjects }, options);
    expect(result.values).toEqual({});
    expect(Object.keys(result.errors).sort()).toEqual(['acceptTerms', 'name', 'specializations']);
    expect(result.errors.specializations?.message).toBe(
      'Only Mathematics allows several subjects; choose one subject in other categories',
    );
  });

  it('refuses a teacher without subjects, and a picture over 5 MB', async () => {
    const avatar = new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'me.png', { type: 'image/png' });
    const result = await resolver({ ...student, role: 'teacher', avatar }, { subjects }, options);
    expect(result.errors.specializations?.message).toBe('Please choose at least one subject');
    expect(result.errors.avatar?.message).toBe('Max file size is 5MB');
  });
});
