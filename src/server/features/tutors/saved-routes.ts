import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { savedTutorIdsSchema, savedTutorsPageSchema, savedTutorsQuerySchema } from '#shared/schemas/saved-tutors.ts';
import type { Database } from '../../db/client.ts';
import { requireRole } from '../../http/session.ts';
import { listSavedTutorIds, listSavedTutors, saveTutor, unsaveTutor } from './service.ts';

const tags = ['tutors'];
const tutorParams = z.object({ id: z.uuid() });

/** Saved tutors: students only (a teacher: 403). */
export const savedTutorsRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/api/tutors/saved',
    {
      schema: {
        summary: 'The signed-in student’s saved tutors as directory cards, the latest saved first, a page at a time',
        description: 'Suspended tutors are left out while suspended.',
        tags,
        querystring: savedTutorsQuerySchema,
        response: { 200: savedTutorsPageSchema },
      },
    },
    async (request, reply) => {
      const student = await requireRole(request, 'student');
      reply.header('cache-control', 'no-store');
      return listSavedTutors({ db, studentId: student.id, cursor: request.query.cursor });
    },
  );

  app.get(
    '/api/tutors/saved/ids',
    {
      schema: {
        summary: 'The ids of the signed-in student’s saved tutors, for the hearts on cards and pages',
        tags,
        response: { 200: savedTutorIdsSchema },
      },
    },
    async (request, reply) => {
      const student = await requireRole(request, 'student');
      reply.header('cache-control', 'no-store');
      return { tutorIds: await listSavedTutorIds({ db, studentId: student.id }) };
    },
  );

  app.put(
    '/api/tutors/:id/saved',
    {
      schema: {
        summary: 'Save a tutor for the signed-in student (saving again changes nothing)',
        description: 'Not a tutor, or a suspended one: 404; past 500 saved tutors: 409 CONFLICT.',
        tags,
        params: tutorParams,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      const student = await requireRole(request, 'student');
      await saveTutor({ db, studentId: student.id, tutorId: request.params.id });
      return reply.status(204).send(null);
    },
  );

  app.delete(
    '/api/tutors/:id/saved',
    {
      schema: {
        summary: 'Forget a saved tutor (not saved: nothing changes)',
        tags,
        params: tutorParams,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      const student = await requireRole(request, 'student');
      await unsaveTutor({ db, studentId: student.id, tutorId: request.params.id });
      return reply.status(204).send(null);
    },
  );
};
