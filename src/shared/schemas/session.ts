import { z } from 'zod';
import { ROLES } from '../constants.ts';

/** The signed-in user as the server resolves it and the web reads it from GET /api/auth/get-session. */
export const sessionUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  username: z.string(),
  role: z.enum(ROLES),
  /** The public three-digit Virtual Help number. */
  vhNumber: z.number().int(),
  image: z
    .string()
    .nullish()
    .transform((image) => image ?? null),
});
export type SessionUser = z.output<typeof sessionUserSchema>;
