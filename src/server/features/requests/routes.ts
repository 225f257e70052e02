import type { FastifyError } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { REQUEST_FILE } from '#shared/constants.ts';
import {
  acceptBidResponseSchema,
  type AcceptBidResponse,
  attachmentListSchema,
  attachmentMessages,
  bidSchema,
  createRequestFieldsSchema,
  createRequestResponseSchema,
  declineDirectRequestSchema,
  jobsPageSchema,
  jobsQuerySchema,
  myRequestsPageSchema,
  myRequestsQuerySchema,
  offerSchema,
  placeBidSchema,
  requestDetailSchema,
  withBudgetRules,
} from '#shared/schemas/requests.ts';
import type { Database } from '../../db/client.ts';
import { fieldError } from '../../http/errors.ts';
import { fromList, fromIntegerText, fromText } from '../../http/multipart-fields.ts';
import { requireRole, requireSession, requireUser } from '../../http/session.ts';
import { sendStoredFile } from '../../http/send-file.ts';
import type { Realtime } from '../../platform/realtime/realtime.ts';
import type { Storage } from '../../platform/storage/storage.ts';
import { uploadLimits, uploadSchema } from '../../http/upload.ts';
import { enforceUserLimit } from '../../platform/limits/usage-limits.ts';
import type { Moderation } from '../moderation/service.ts';
import { startCheckout } from '../payments/service.ts';
import type { Config } from '../../config.ts';
import { completeJobResponseSchema, markDeliveredResponseSchema, sharedJobsSchema } from '#shared/schemas/reviews.ts';
import {
  acceptBid,
  completeJob,
  createRequest,
  declineDirectRequest,
  getRequestAttachment,
  getRequestDetail,
  listJobs,
  listMyRequests,
  listOffers,
  listSharedJobs,
  markJobDelivered,
  openDirectRequestToAll,
  placeBid,
} from './service.ts';
import { fileAnswer } from '../../http/openapi.ts';

const fields = createRequestFieldsSchema.shape;
/** The request form as JSON, or as multipart/form-data with up to 10 files in the field "attachments". */
const createRequestBodySchema = withBudgetRules(
  createRequestFieldsSchema.extend({
    budgetMinCents: z.preprocess(fromIntegerText, fields.budgetMinCents),
    budgetMaxCents: z.preprocess(fromIntegerText, fields.budgetMaxCents),
    deadline: z.preprocess(fromText, fields.deadline),
    level: z.preprocess(fromText, fields.level),
    supportType: z.preprocess(fromText, fields.supportType),
    directTutorId: z.preprocess(fromText, fields.directTutorId),
    attachments: z
      .preprocess(
        fromList,
        attachmentListSchema(uploadSchema).meta({
          description: 'Files (multipart only)',
          items: { type: 'string', format: 'binary' },
        }),
      )
      .default([]),
  }),
);

const requestParams = z.object({ id: z.uuid() });

export const requestsRoutes: FastifyPluginAsyncZod<{
  db: Database;
  storage: Storage;
  realtime: Realtime;
  moderation: Moderation;
  publicUrl: string;
  paymentsProvider: Config['payments']['provider'];
  commissionBasisPoints: number;
}> = async (app, { db, storage, realtime, moderation, publicUrl, paymentsProvider, commissionBasisPoints }) => {
  app.post(
    '/api/requests',
    {
      config: {
        // Each request can mail every teacher of a subject: a per-address ceiling keeps that from becoming spam.
        rateLimit: { max: 20, timeWindow: '10 minutes' },
        multipartOptions: uploadLimits({ maxBytes: REQUEST_FILE.maxBytes, files: REQUEST_FILE.maxFiles }),
      },
      schema: {
        summary: 'Post a tutoring or assignment request (students); the teachers of its subject are notified',
        description:
          'JSON, or multipart/form-data with the same fields plus up to 10 files in "attachments" (10 MB each; images, PDF, Word, Excel, plain text, typed from their bytes). ' +
          'Amounts are integer USD cents. budgetMaxCents left out stores 1500 for tutoring and 999900 ("no maximum") for assignments. The wizard posts the same body (see wizardRequestToInput).',
        tags: ['requests'],
        consumes: ['application/json', 'multipart/form-data'],
        headers: z.object({
          'idempotency-key': z
            .uuid({ error: 'The Idempotency-Key header must be a UUID' })
            .optional()
            .meta({ description: 'A UUID per form: submitting it again answers 200 with the request it made' }),
        }),
        body: createRequestBodySchema,
        response: { 201: createRequestResponseSchema, 200: createRequestResponseSchema },
      },
      // Refused before any file is read: signed out, not a student, or past the student's ceiling.
      onRequest: async (request) => {
        await enforceUserLimit(db, (await requireRole(request, 'student')).id, 'requests');
      },
      // More files than allowed stop the upload itself; say so with the form's message.
      errorHandler: (error: FastifyError) => {
        if (error.code === 'FST_FILES_LIMIT') throw fieldError('attachments', attachmentMessages.tooMany);
        throw error;
      },
    },
    async (request, reply) => {
      const student = await requireRole(request, 'student');
      const { sessionId } = await requireSession(request);
      const { attachments, ...input } = request.body;
      const { replayed, ...created } = await createRequest({
        db,
        storage,
        realtime,
        moderation,
        publicUrl,
        student,
        sessionId,
        input,
        uploads: attachments,
        idempotencyKey: request.headers['idempotency-key'],
      });
      return reply.status(replayed ? 200 : 201).send(created);
    },
  );

  app.get(
    '/api/requests/mine',
    {
      schema: {
        summary: 'The signed-in student’s requests, newest first: the Live or the Expired tab, a page at a time',
        tags: ['requests'],
        querystring: myRequestsQuerySchema,
        response: { 200: myRequestsPageSchema },
      },
    },
    async (request, reply) => {
      const student = await requireRole(request, 'student');
      reply.header('cache-control', 'no-store');
      return listMyRequests({ db, studentId: student.id, ...request.query });
    },
  );

  app.get(
    '/api/requests/:id',
    {
      schema: {
        summary: 'One of the signed-in student’s requests with its offers summary and how many tutors were notified',
        tags: ['requests'],
        params: requestParams,
        response: { 200: requestDetailSchema },
      },
    },
    async (request, reply) => {
      const student = await requireRole(request, 'student');
      reply.header('cache-control', 'no-store');
      return getRequestDetail({ db, studentId: student.id, requestId: request.params.id });
    },
  );

  app.get(
    '/api/requests/:id/bids',
    {
      schema: {
        summary:
          'The offers on one of the signed-in student’s requests, newest first, with each tutor’s public profile',
        tags: ['requests'],
        params: requestParams,
        response: { 200: z.object({ offers: z.array(offerSchema) }) },
      },
    },
    async (request, reply) => {
      const student = await requireRole(request, 'student');
      reply.header('cache-control', 'no-store');
      return { offers: await listOffers({ db, studentId: student.id, requestId: request.params.id }) };
    },
  );

  app.post(
    '/api/requests/:id/bids/:bidId/accept',
    {
      schema: {
        summary: 'Accept an offer while the request is open or pending and not expired',
        description:
          'With a payment provider, starts the checkout that holds the request (or answers the one already started for ' +
          'this offer): outcome "checkout", pay it at /checkout/{checkoutId}; only the paid checkout accepts the ' +
          'offer. With PAYMENTS_PROVIDER=none, accepts at once and opens the chat with the tutor: outcome "accepted". ' +
          'A second acceptance of another offer answers 409 OFFER_ALREADY_ACCEPTED (or CHECKOUT_IN_PROGRESS while ' +
          'another offer is being paid); an expired or closed request 409 REQUEST_CLOSED.',
        tags: ['requests'],
        params: z.object({ id: z.uuid(), bidId: z.uuid() }),
        response: { 200: acceptBidResponseSchema },
      },
    },
    async (request): Promise<AcceptBidResponse> => {
      const student = await requireRole(request, 'student');
      const { id: requestId, bidId } = request.params;
      if (paymentsProvider === 'none') return acceptBid({ db, realtime, publicUrl, student, requestId, bidId });
      const checkout = await startCheckout({ db, provider: paymentsProvider, studentId: student.id, requestId, bidId });
      return { outcome: 'checkout', requestId, bidId, tutorId: checkout.tutorId, checkoutId: checkout.id };
    },
  );

  app.post(
    '/api/requests/:id/open-to-all',
    {
      schema: {
        summary: 'Open a direct request its tutor declined or left unanswered to every tutor of its subject',
        description:
          'Keeps everything written; the 48 hours before it expires start again, and the tutors of the subject are ' +
          'told. Anyone but its student: 404; a request that is not a declined or unanswered direct one, or is no ' +
          'longer open: 409 REQUEST_CLOSED.',
        tags: ['requests'],
        params: requestParams,
        response: { 200: requestDetailSchema },
      },
    },
    async (request) => {
      const student = await requireRole(request, 'student');
      return openDirectRequestToAll({ db, realtime, publicUrl, student, requestId: request.params.id });
    },
  );

  app.post(
    '/api/requests/:id/complete',
    {
      schema: {
        summary: 'Mark the job (an accepted request) completed; the tutor is told and the student asked for a rating',
        description:
          'A request without an accepted offer answers 409 JOB_NOT_ACCEPTED; marking it again answers the same.',
        tags: ['requests'],
        params: requestParams,
        response: { 200: completeJobResponseSchema },
      },
    },
    async (request) => {
      const student = await requireRole(request, 'student');
      return completeJob({ db, realtime, publicUrl, commissionBasisPoints, student, requestId: request.params.id });
    },
  );

  app.post(
    '/api/requests/:id/delivered',
    {
      schema: {
        summary: 'The tutor marks the job delivered; its student is asked to mark it completed',
        description:
          'The first mark is kept: the held money is released some days after it unless the student marks the job completed sooner or asks for a refund. ' +
          'Anyone but the accepted tutor: 404; a request that is not accepted: 409 JOB_NOT_ACCEPTED.',
        tags: ['requests'],
        params: requestParams,
        response: { 200: markDeliveredResponseSchema },
      },
    },
    async (request) => {
      const tutor = await requireRole(request, 'teacher');
      return markJobDelivered({ db, realtime, publicUrl, tutor, requestId: request.params.id });
    },
  );

  app.get(
    '/api/requests/:id/attachments/:index',
    {
      schema: {
        summary: 'Download a request’s file (its student, teachers who can see the job, teachers who bid on it)',
        tags: ['requests'],
        params: z.object({
          id: z.uuid(),
          index: z.coerce
            .number()
            .int()
            .min(0)
            .max(REQUEST_FILE.maxFiles - 1),
        }),
        response: { 200: fileAnswer },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const { file, filename } = await getRequestAttachment({
        db,
        storage,
        user,
        requestId: request.params.id,
        index: request.params.index,
      });
      // Always a download with the detected type, never rendered from our origin.
      return sendStoredFile(reply, file, { disposition: 'attachment', filename, cacheControl: 'private, no-store' });
    },
  );

  app.get(
    '/api/jobs',
    {
      schema: {
        summary:
          'Open requests in the signed-in teacher’s subjects, newest first, a page at a time, with the tab counts',
        tags: ['requests'],
        querystring: jobsQuerySchema,
        response: { 200: jobsPageSchema },
      },
    },
    async (request, reply) => {
      const teacher = await requireRole(request, 'teacher');
      reply.header('cache-control', 'no-store');
      return listJobs({ db, teacherId: teacher.id, ...request.query });
    },
  );

  app.post(
    '/api/jobs/:requestId/bids',
    {
      schema: {
        summary: 'Bid on a job in one of the signed-in teacher’s subjects (one bid per request)',
        description:
          'amountCents is integer USD cents. An amount outside the budget answers 400 with fields.amountCents "Your bid must be between {min} and {max}." (dollars); a second bid 409 ALREADY_BID.',
        tags: ['requests'],
        params: z.object({ requestId: z.uuid() }),
        body: placeBidSchema,
        response: { 201: bidSchema },
      },
    },
    async (request, reply) => {
      const teacher = await requireRole(request, 'teacher');
      return reply.status(201).send(
        await placeBid({
          db,
          realtime,
          moderation,
          publicUrl,
          teacher,
          requestId: request.params.requestId,
          input: request.body,
        }),
      );
    },
  );

  app.post(
    '/api/jobs/:requestId/decline',
    {
      schema: {
        summary: 'Decline a request sent to the signed-in tutor directly, with an optional reason for the student',
        description:
          'The student is told and may open the request to all tutors of its subject. Anyone but its tutor, or a ' +
          'request declined already or opened to all: 404; after a bid: 409 ALREADY_BID; a closed or expired ' +
          'request: 409 REQUEST_CLOSED; a reason with contact details or abuse: 400 MESSAGE_BLOCKED.',
        tags: ['requests'],
        params: z.object({ requestId: z.uuid() }),
        body: declineDirectRequestSchema,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      const tutor = await requireRole(request, 'teacher');
      await declineDirectRequest({
        db,
        realtime,
        moderation,
        publicUrl,
        tutor,
        requestId: request.params.requestId,
        input: request.body,
      });
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/shared-jobs/:userId',
    {
      schema: {
        summary: 'The jobs between the signed-in user and this person, newest first, with their reviews',
        description: 'What the chat header needs for "Mark as delivered", "Mark as completed" and the rating prompt.',
        tags: ['requests'],
        params: z.object({ userId: z.uuid() }),
        response: { 200: sharedJobsSchema },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      reply.header('cache-control', 'no-store');
      return { jobs: await listSharedJobs({ db, userId: user.id, partnerId: request.params.userId }) };
    },
  );
};
