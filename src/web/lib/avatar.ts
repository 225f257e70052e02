import { apiFetch } from './api.ts';

/** Replaces the signed-in user's avatar; resolves with its new URL. Throws ApiError. */
export async function uploadAvatar(file: File) {
  const body = new FormData();
  body.append('avatar', file);
  return apiFetch<{ image: string }>('/api/profile/avatar', { method: 'POST', body });
}
