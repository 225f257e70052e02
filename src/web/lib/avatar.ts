import { z } from 'zod';
import { withAvatarRules } from '#shared/schemas/profiles.ts';
import { apiFetch } from './api.ts';

/** A picked avatar file under SPEC.md's rules (5 MB; jpg, jpeg, png, webp) with their messages. */
export const avatarFileSchema = withAvatarRules(z.instanceof(File));

/** The first rule the file breaks, or null. */
export function avatarProblem(file: File): string | null {
  const result = avatarFileSchema.safeParse(file);
  return result.success ? null : (result.error.issues[0]?.message ?? null);
}

/** Replaces the signed-in user's avatar; resolves with its new URL. Throws ApiError. */
export async function uploadAvatar(file: File) {
  const body = new FormData();
  body.append('avatar', file);
  return apiFetch<{ image: string }>('/api/profile/avatar', { method: 'POST', body });
}
