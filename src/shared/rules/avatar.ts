import { AVATAR } from '#shared/constants.ts';

/** What a browser File and a server upload both have; on the server `type` is detected from the bytes. */
export type FileLike = { size: number; type: string };

/** The avatar rules (SPEC.md §5 Register, §9) in the order they are checked, with their messages. */
export const avatarRules = [
  { isMet: (file: FileLike) => file.size <= AVATAR.maxBytes, message: 'Max file size is 5MB' },
  {
    isMet: (file: FileLike) => (AVATAR.types as readonly string[]).includes(file.type),
    message: 'Only .jpg, .jpeg, .png and .webp formats are supported',
  },
] as const;

/** The first avatar rule the file breaks, or null. */
export function avatarProblem(file: FileLike): string | null {
  return avatarRules.find((rule) => !rule.isMet(file))?.message ?? null;
}
