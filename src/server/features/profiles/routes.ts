import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AVATAR } from '#shared/constants.ts';
import {
  profileSchema,
  subjectSchema,
  updateSpecializationsSchema,
  updateTutorListingSchema,
  withAvatarRules,
} from '#shared/schemas/profiles.ts';
import { tutorAboutSchema, updateTutorAboutSchema } from '#shared/schemas/reviews.ts';
import type { Database } from '../../db/client.ts';
import { sendStoredFile } from '../../http/send-file.ts';
import { requireSession, requireUser } from '../../http/session.ts';
import { enforceUserLimit } from '../../platform/limits/usage-limits.ts';
import type { Storage } from '../../platform/storage/storage.ts';
import { uploadLimits, uploadSchema } from '../../http/upload.ts';
import type { Moderation } from '../moderation/service.ts';
import {
  getAvatar,
  getProfile,
  listSubjects,
  updateAvatar,
  updateSpecializations,
  updateTutorAbout,
  updateTutorListing,
} from './service.ts';
import { fileAnswer } from '../../http/openapi.ts';

export const profilesRoutes: FastifyPluginAsyncZod<{ db: Database; storage: Storage; moderation: Moderation }> = async (
  app,
  { db, storage, moderation },
) => {
  app.get(
    '/api/subjects',
    {
      schema: {
        security: [],
        summary: 'Every subject, by category then name',
        tags: ['profiles'],
        response: { 200: z.object({ subjects: z.array(subjectSchema) }) },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return { subjects: await listSubjects({ db }) };
    },
  );

  app.get(
    '/api/profile',
    { schema: { summary: 'The signed-in user’s profile', tags: ['profiles'], response: { 200: profileSchema } } },
    async (request, reply) => {
      const user = await requireUser(request);
      reply.header('cache-control', 'no-store');
      return getProfile({ db, userId: user.id });
    },
  );

  app.post(
    '/api/profile/avatar',
    {
      config: { multipartOptions: uploadLimits({ maxBytes: AVATAR.maxBytes }) },
      schema: {
        summary: 'Replace the signed-in user’s avatar (multipart field "avatar")',
        tags: ['profiles'],
        consumes: ['multipart/form-data'],
        body: z.object({ avatar: withAvatarRules(uploadSchema) }),
        response: { 200: z.object({ image: z.string() }) },
      },
      // Signed-out uploads, and uploads past the user's ceiling, are refused before their bytes are read.
      onRequest: async (request) => {
        await enforceUserLimit(db, (await requireUser(request)).id, 'uploads');
      },
    },
    async (request) => {
      const { user, sessionId } = await requireSession(request);
      return updateAvatar({ db, storage, userId: user.id, sessionId, upload: request.body.avatar });
    },
  );

  app.put(
    '/api/profile/specializations',
    {
      schema: {
        summary: 'Replace the signed-in teacher’s subjects (several in Mathematics, one in any other category)',
        tags: ['profiles'],
        body: updateSpecializationsSchema,
        response: { 200: z.object({ specializations: z.array(subjectSchema) }) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      return { specializations: await updateSpecializations({ db, user, subjectIds: request.body.subjectIds }) };
    },
  );

  app.put(
    '/api/profile/about',
    {
      schema: {
        summary: 'Replace the signed-in teacher’s headline (80 characters) and about text (1,000), shown on their page',
        description: 'Students: 403; contact details: 400 MESSAGE_BLOCKED on the field.',
        tags: ['profiles'],
        body: updateTutorAboutSchema,
        response: { 200: tutorAboutSchema },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      return updateTutorAbout({ db, moderation, user, input: request.body });
    },
  );

  app.put(
    '/api/profile/listing',
    {
      schema: {
        summary:
          'Set the signed-in teacher’s hourly rate (tutoring range, cents) and whether visitors see their profile',
        description: 'Students: 403; a rate outside the tutoring budget range: 400 on hourlyRateCents.',
        tags: ['profiles'],
        body: updateTutorListingSchema,
        response: { 200: updateTutorListingSchema },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      return updateTutorListing({ db, user, input: request.body });
    },
  );

  app.get(
    '/api/files/avatars/:name',
    {
      schema: {
        security: [],
        summary: 'An avatar image, with the type detected when it was uploaded',
        tags: ['profiles'],
        params: z.object({ name: z.string().regex(/^[0-9a-f-]{36}\.[a-z0-9]{2,5}$/) }),
        response: { 200: fileAnswer },
      },
    },
    async (request, reply) => {
      const file = await getAvatar({ storage, name: request.params.name });
      // A new avatar gets a new name, so a cached one never goes stale.
      return sendStoredFile(reply, file, {
        disposition: 'inline',
        cacheControl: 'public, max-age=31536000, immutable',
      });
    },
  );
};
