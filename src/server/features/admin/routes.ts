import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SUPER_ADMIN_ROLE } from '#shared/constants.ts';
import {
  addSubAdminSchema,
  adminAccessSchema,
  adminFlagSchema,
  adminFlagsPageSchema,
  adminFlagsQuerySchema,
  adminMeetingStatsSchema,
  adminReportSchema,
  adminReportsPageSchema,
  adminReportsQuerySchema,
  adminStatsSchema,
  auditLogPageSchema,
  auditLogQuerySchema,
  decideFlagSchema,
  decideReportSchema,
  subAdminSchema,
  adminUserSchema,
  suspensionSchema,
  contactMessageSchema,
  contactMessagesPageSchema,
  contactMessagesQuerySchema,
  createPatternSchema,
  markHandledSchema,
  moderationPatternSchema,
  patternsPageSchema,
  patternsQuerySchema,
  repeatedSendersSchema,
  setPatternActiveSchema,
  subAdminsPageSchema,
  subAdminsQuerySchema,
  updateSubAdminSchema,
} from '#shared/schemas/admin.ts';
import {
  adminReviewSchema,
  adminReviewsPageSchema,
  hideReviewSchema,
  reviewsQuerySchema,
} from '#shared/schemas/reviews.ts';
import type { Database } from '../../db/client.ts';
import type { Realtime } from '../../platform/realtime/realtime.ts';
import { listRepeatedSenders, type Moderation } from '../moderation/service.ts';
import { listAuditLog } from './audit.ts';
import { listContactMessages, markContactMessage } from './contact-messages.ts';
import { createPattern, listPatterns, setPatternActive } from './patterns.ts';
import { getMeetingStats } from '../meetings/service.ts';
import { decideFlag, decideReport, listFlags, listReports } from './moderation-queue.ts';
import { hideReviewAsAdmin } from './reviews.ts';
import { getAdminStats, requireAdmin } from './service.ts';
import { listReportedReviews } from '../tutors/service.ts';
import { addSubAdmin, listSubAdmins, removeSubAdmin, updateSubAdmin } from './sub-admins.ts';
import { getAdminUser, reinstateUser, suspendUser } from './users.ts';

const tags = ['admin'];
const idParams = z.object({ id: z.uuid() });
const userParams = z.object({ userId: z.uuid() });

// Every route starts with requireAdmin and the page's permission (or the super-admin); every change writes its audit
// row in its own transaction. Answers are never cached: a decision elsewhere changes them.
export const adminRoutes: FastifyPluginAsyncZod<{ db: Database; realtime: Realtime; moderation: Moderation }> = async (
  app,
  { db, realtime, moderation },
) => {
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.get(
    '/api/admin/me',
    {
      schema: {
        summary: 'The signed-in admin’s role and permissions',
        description: 'Signed out: 401; a user without an admin role: 403 (the admin login then signs them out).',
        tags,
        response: { 200: adminAccessSchema },
      },
    },
    async (request) => (await requireAdmin(request, db)).access,
  );

  app.get(
    '/api/admin/stats',
    {
      schema: {
        summary: 'Dashboard counters',
        description:
          'Total Chats (chat rooms), Total Users (accounts, without system accounts), Active Reports (pending user reports), Flagged Content (pending illegal-content flags). Needs the dashboard permission.',
        tags,
        response: { 200: adminStatsSchema },
      },
    },
    async (request) => {
      await requireAdmin(request, db, 'dashboard');
      return getAdminStats(db);
    },
  );

  app.get(
    '/api/admin/reports',
    {
      schema: {
        summary: 'Report Management: user reports, newest first',
        description:
          'Filter by status, order by Created At (newest or oldest first), page with the cursor. Needs reports.',
        tags,
        querystring: adminReportsQuerySchema,
        response: { 200: adminReportsPageSchema },
      },
    },
    async (request) => {
      await requireAdmin(request, db, 'reports');
      return listReports({ db, ...request.query });
    },
  );

  app.post(
    '/api/admin/reports/:id/decision',
    {
      schema: {
        summary: 'Resolve or dismiss a report with a note',
        description: 'Unknown report: 404; already resolved or dismissed: 409. Needs reports.',
        tags,
        params: idParams,
        body: decideReportSchema,
        response: { 200: adminReportSchema },
      },
    },
    async (request) => {
      const { user } = await requireAdmin(request, db, 'reports');
      return decideReport({ db, actor: user, reportId: request.params.id, input: request.body });
    },
  );

  app.get(
    '/api/admin/reviews',
    {
      schema: {
        summary: 'Report Management: reviews their tutors reported, newest report first',
        description: 'Page with the cursor. Needs reports.',
        tags,
        querystring: reviewsQuerySchema,
        response: { 200: adminReviewsPageSchema },
      },
    },
    async (request) => {
      await requireAdmin(request, db, 'reports');
      return listReportedReviews({ db, cursor: request.query.cursor });
    },
  );

  app.post(
    '/api/admin/reviews/:id/hide',
    {
      schema: {
        summary: 'Hide a review with a note: it leaves the tutor’s page and no longer counts in the rating',
        description: 'Unknown review: 404; already hidden: 409. Needs reports.',
        tags,
        params: idParams,
        body: hideReviewSchema,
        response: { 200: adminReviewSchema },
      },
    },
    async (request) => {
      const { user } = await requireAdmin(request, db, 'reports');
      return hideReviewAsAdmin({ db, actor: user, reviewId: request.params.id, note: request.body.note });
    },
  );

  app.get(
    '/api/admin/flags',
    {
      schema: {
        summary: 'Illegal Content: flags of blocked messages, newest first',
        description: 'Filter by status, order by Created At, page with the cursor. Needs content.',
        tags,
        querystring: adminFlagsQuerySchema,
        response: { 200: adminFlagsPageSchema },
      },
    },
    async (request) => {
      await requireAdmin(request, db, 'content');
      return listFlags({ db, ...request.query });
    },
  );

  app.get(
    '/api/admin/flags/repeated-senders',
    {
      schema: {
        summary: 'Illegal Content: users with repeated refused attempts',
        description:
          'Users with 3 or more refused attempts to send a text in the last 24 hours (every attempt counted, the flags stop at 3 an hour for each user), most first, with their latest flag. Needs content.',
        tags,
        response: { 200: repeatedSendersSchema },
      },
    },
    async (request) => {
      await requireAdmin(request, db, 'content');
      return { items: await listRepeatedSenders({ db }) };
    },
  );

  app.post(
    '/api/admin/flags/:id/decision',
    {
      schema: {
        summary: 'Review or dismiss a flag with a note',
        description: 'Unknown flag: 404; already decided: 409. Needs content.',
        tags,
        params: idParams,
        body: decideFlagSchema,
        response: { 200: adminFlagSchema },
      },
    },
    async (request) => {
      const { user } = await requireAdmin(request, db, 'content');
      return decideFlag({ db, actor: user, flagId: request.params.id, input: request.body });
    },
  );

  app.get(
    '/api/admin/meetings/stats',
    {
      schema: {
        summary: 'Meeting Statistics',
        description: 'Total Meetings, Jitsi Meetings and the 5 most recently scheduled. Needs meetings.',
        tags,
        response: { 200: adminMeetingStatsSchema },
      },
    },
    async (request) => {
      await requireAdmin(request, db, 'meetings');
      return getMeetingStats({ db });
    },
  );

  app.get(
    '/api/admin/sub-admins',
    {
      schema: {
        summary: 'Sub-Admin Management: every admin role but the super-admin’s',
        description: 'Newest first, paged. The super-admin only.',
        tags,
        querystring: subAdminsQuerySchema,
        response: { 200: subAdminsPageSchema },
      },
    },
    async (request) => {
      await requireAdmin(request, db, SUPER_ADMIN_ROLE);
      return listSubAdmins({ db, ...request.query });
    },
  );

  app.post(
    '/api/admin/sub-admins',
    {
      schema: {
        summary: 'Make an existing account a sub-admin with permissions',
        description:
          'By e-mail address or username. No such account: 404; already an admin: 409. The super-admin only.',
        tags,
        body: addSubAdminSchema,
        response: { 201: subAdminSchema },
      },
    },
    async (request, reply) => {
      const { user } = await requireAdmin(request, db, SUPER_ADMIN_ROLE);
      return reply.status(201).send(await addSubAdmin({ db, actor: user, input: request.body }));
    },
  );

  app.put(
    '/api/admin/sub-admins/:userId',
    {
      schema: {
        summary: 'Set a sub-admin’s permissions',
        description: 'Not a sub-admin: 404. The super-admin only.',
        tags,
        params: userParams,
        body: updateSubAdminSchema,
        response: { 200: subAdminSchema },
      },
    },
    async (request) => {
      const { user } = await requireAdmin(request, db, SUPER_ADMIN_ROLE);
      return updateSubAdmin({ db, actor: user, userId: request.params.userId, input: request.body });
    },
  );

  app.delete(
    '/api/admin/sub-admins/:userId',
    {
      schema: {
        summary: 'Take the sub-admin role away',
        description: 'The account stays, without admin access. Not a sub-admin: 404. The super-admin only.',
        tags,
        params: userParams,
      },
    },
    async (request, reply) => {
      const { user } = await requireAdmin(request, db, SUPER_ADMIN_ROLE);
      await removeSubAdmin({ db, actor: user, userId: request.params.userId });
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/admin/users/:userId',
    {
      schema: {
        summary: 'A user’s page: profile, role, VH number, requests, bids, reports by and against them, flags',
        description: 'Unknown user: 404. Needs users.',
        tags,
        params: userParams,
        response: { 200: adminUserSchema },
      },
    },
    async (request) => {
      await requireAdmin(request, db, 'users');
      return getAdminUser({ db, userId: request.params.userId });
    },
  );

  app.post(
    '/api/admin/users/:userId/suspension',
    {
      schema: {
        summary: 'Suspend a user, with a reason',
        description:
          'They cannot sign in any more; their sessions end and their sockets close at once. Unknown user: 404; an admin or already suspended: 409. Needs users.',
        tags,
        params: userParams,
        body: suspensionSchema,
        response: { 200: adminUserSchema },
      },
    },
    async (request) => {
      const { user } = await requireAdmin(request, db, 'users');
      const { userId } = request.params;
      const { endedSessionIds } = await suspendUser({ db, actor: user, userId, reason: request.body.reason });
      for (const sessionId of endedSessionIds) realtime.endSession(sessionId);
      return getAdminUser({ db, userId });
    },
  );

  app.post(
    '/api/admin/users/:userId/reinstatement',
    {
      schema: {
        summary: 'Reinstate a suspended user, with a reason',
        description: 'They can sign in again. Unknown user: 404; not suspended: 409. Needs users.',
        tags,
        params: userParams,
        body: suspensionSchema,
        response: { 200: adminUserSchema },
      },
    },
    async (request) => {
      const { user } = await requireAdmin(request, db, 'users');
      const { userId } = request.params;
      await reinstateUser({ db, actor: user, userId, reason: request.body.reason });
      return getAdminUser({ db, userId });
    },
  );

  app.get(
    '/api/admin/patterns',
    {
      schema: {
        summary: 'Moderation patterns, newest first',
        description: 'Filter active or inactive, order by Created At, page with the cursor. Needs patterns.',
        tags,
        querystring: patternsQuerySchema,
        response: { 200: patternsPageSchema },
      },
    },
    async (request) => {
      await requireAdmin(request, db, 'patterns');
      return listPatterns({ db, ...request.query });
    },
  );

  app.post(
    '/api/admin/patterns',
    {
      schema: {
        summary: 'Add a moderation pattern, checked and tried on a sample message first',
        description:
          'A case-insensitive regular expression that must compile, must not risk catastrophic backtracking, must block the sample within a time bound and must not match an empty message (400 with the reason). The chat filter uses it from the next message. Same pattern and category: 409. Needs patterns.',
        tags,
        body: createPatternSchema,
        response: { 201: moderationPatternSchema },
      },
    },
    async (request, reply) => {
      const { user } = await requireAdmin(request, db, 'patterns');
      const pattern = await createPattern({ db, actor: user, input: request.body });
      moderation.forgetPatterns();
      return reply.status(201).send(pattern);
    },
  );

  app.patch(
    '/api/admin/patterns/:id',
    {
      schema: {
        summary: 'Enable or disable a moderation pattern',
        description: 'The chat filter follows from the next message. Unknown pattern: 404. Needs patterns.',
        tags,
        params: idParams,
        body: setPatternActiveSchema,
        response: { 200: moderationPatternSchema },
      },
    },
    async (request) => {
      const { user } = await requireAdmin(request, db, 'patterns');
      const pattern = await setPatternActive({ db, actor: user, patternId: request.params.id, ...request.body });
      moderation.forgetPatterns();
      return pattern;
    },
  );

  app.get(
    '/api/admin/contact-messages',
    {
      schema: {
        summary: 'Contact-form messages, newest first',
        description: 'Filter open or handled, order by Created At, page with the cursor. Needs messages.',
        tags,
        querystring: contactMessagesQuerySchema,
        response: { 200: contactMessagesPageSchema },
      },
    },
    async (request) => {
      await requireAdmin(request, db, 'messages');
      return listContactMessages({ db, ...request.query });
    },
  );

  app.post(
    '/api/admin/contact-messages/:id/handled',
    {
      schema: {
        summary: 'Mark a contact message handled, or open again',
        description: 'Who and when are kept. Unknown message: 404. Needs messages.',
        tags,
        params: idParams,
        body: markHandledSchema,
        response: { 200: contactMessageSchema },
      },
    },
    async (request) => {
      const { user } = await requireAdmin(request, db, 'messages');
      return markContactMessage({ db, actor: user, messageId: request.params.id, handled: request.body.handled });
    },
  );

  app.get(
    '/api/admin/audit-log',
    {
      schema: {
        summary: 'The audit log of admin actions, newest first',
        description:
          'Who did what to which object, when, with the object before and after. Read-only. The super-admin only.',
        tags,
        querystring: auditLogQuerySchema,
        response: { 200: auditLogPageSchema },
      },
    },
    async (request) => {
      await requireAdmin(request, db, SUPER_ADMIN_ROLE);
      return listAuditLog({ db, ...request.query });
    },
  );
};
