import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  reviewInputSchema,
  reviewReplySchema,
  reviewReportSchema,
  reviewSchema,
  reviewsPageSchema,
  reviewsQuerySchema,
  tutorProfileSchema,
} from '#shared/schemas/reviews.ts';
import { directoryPageSchema, directoryQuerySchema } from '#shared/schemas/directory.ts';
import type { Database } from '../../db/client.ts';
import { requireRole, requireUser } from '../../http/session.ts';
import type { Realtime } from '../../platform/realtime/realtime.ts';
import type { Moderation } from '../moderation/service.ts';
import {
  createReview,
  getTutorProfile,
  listDirectory,
  listTutorReviews,
  replyToReview,
  reportReview,
  updateReview,
} from './service.ts';

const tags = ['tutors'];
const reviewParams = z.object({ id: z.uuid() });

export const tutorsRoutes: FastifyPluginAsyncZod<{
  db: Database;
  realtime: Realtime;
  moderation: Moderation;
  publicUrl: string;
}> = async (app, { db, realtime, moderation, publicUrl }) => {
  app.get(
    '/api/tutors',
    {
      schema: {
        security: [],
        summary: 'Find Tutors: a page of tutor cards, filtered, searched and sorted, with the next page’s cursor',
        description:
          'Anyone; signed out, only the tutors visible to visitors. Suspended tutors never appear. A bad filter or cursor: 400.',
        tags,
        querystring: directoryQuerySchema,
        response: { 200: directoryPageSchema },
      },
    },
    async (request, reply) => {
      const user = await request.getSessionUser();
      // What a signed-in user sees differs from a visitor's page: never kept by a shared cache.
      reply.header('cache-control', 'no-store');
      return listDirectory({ db, query: request.query, isSignedIn: user !== null });
    },
  );

  app.get(
    '/api/tutors/:id',
    {
      schema: {
        security: [],
        summary: 'A tutor’s public page: profile texts, subjects, completed jobs, rating and first-response time',
        description:
          'Anyone; signed out, only a tutor visible to visitors and not suspended, without the VH number. Not a teacher: 404. Never carries the e-mail address.',
        tags,
        params: z.object({ id: z.uuid() }),
        response: { 200: tutorProfileSchema },
      },
    },
    async (request, reply) => {
      const user = await request.getSessionUser();
      reply.header('cache-control', 'no-store');
      return getTutorProfile({ db, tutorId: request.params.id, isSignedIn: user !== null });
    },
  );

  app.get(
    '/api/tutors/:id/reviews',
    {
      schema: {
        summary: 'A tutor’s reviews, newest first, a page at a time (hidden reviews left out)',
        tags,
        params: z.object({ id: z.uuid() }),
        querystring: reviewsQuerySchema,
        response: { 200: reviewsPageSchema },
      },
    },
    async (request, reply) => {
      await requireUser(request);
      reply.header('cache-control', 'no-store');
      return listTutorReviews({ db, tutorId: request.params.id, cursor: request.query.cursor });
    },
  );

  app.post(
    '/api/requests/:id/review',
    {
      schema: {
        summary: 'Rate a completed job from 1 to 5 stars with an optional review (its student, once)',
        description:
          'Not completed: 409 JOB_NOT_COMPLETED; a second review: 409 ALREADY_REVIEWED; contact details: 400 MESSAGE_BLOCKED.',
        tags,
        params: z.object({ id: z.uuid() }),
        body: reviewInputSchema,
        response: { 201: reviewSchema },
      },
    },
    async (request, reply) => {
      const student = await requireRole(request, 'student');
      const review = await createReview({
        db,
        realtime,
        moderation,
        publicUrl,
        student,
        requestId: request.params.id,
        input: request.body,
      });
      return reply.status(201).send(review);
    },
  );

  app.patch(
    '/api/reviews/:id',
    {
      schema: {
        summary: 'Change one’s review within 7 days of writing it',
        description: 'Later: 409 REVIEW_EDIT_CLOSED.',
        tags,
        params: reviewParams,
        body: reviewInputSchema,
        response: { 200: reviewSchema },
      },
    },
    async (request) => {
      const student = await requireRole(request, 'student');
      return updateReview({ db, moderation, student, reviewId: request.params.id, input: request.body });
    },
  );

  app.post(
    '/api/reviews/:id/reply',
    {
      schema: {
        summary: 'The reviewed tutor’s one public reply',
        description: 'A second reply: 409 ALREADY_REPLIED.',
        tags,
        params: reviewParams,
        body: reviewReplySchema,
        response: { 200: reviewSchema },
      },
    },
    async (request) => {
      const tutor = await requireRole(request, 'teacher');
      return replyToReview({ db, moderation, tutor, reviewId: request.params.id, body: request.body.body });
    },
  );

  app.post(
    '/api/reviews/:id/report',
    {
      schema: {
        summary: 'The reviewed tutor reports a review to the admins, once',
        description: 'A second report: 409 ALREADY_REPORTED.',
        tags,
        params: reviewParams,
        body: reviewReportSchema,
        response: { 200: reviewSchema },
      },
    },
    async (request) => {
      const tutor = await requireRole(request, 'teacher');
      return reportReview({ db, tutor, reviewId: request.params.id, reason: request.body.reason });
    },
  );
};
