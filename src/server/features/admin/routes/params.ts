import { z } from 'zod';

export const tags = ['admin'];
export const idParams = z.object({ id: z.uuid() });
export const userParams = z.object({ userId: z.uuid() });
