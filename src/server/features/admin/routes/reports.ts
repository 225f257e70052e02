import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { REVIEWS_TO_LOOK_AT } from '#shared/constants.ts';
import {
  adminReportSchema,
  adminReportsPageSchema,
  adminReportsQuerySchema,
  decideReportSchema,
} from '#shared/schemas/admin.ts';
import {
  adminReviewSchema,
  adminReviewsPageSchema,
  hideReviewSchema,
  reviewsQuerySchema,
  reviewsToLookAtPageSchema,
  reviewToLookAtSchema,
} from '#shared/schemas/reviews.ts';
import type { Database } from '../../../db/client.ts';
import { listReportedReviews, listReviewsToLookAt } from '../../tutors/service.ts';
import { decideReport, listReports } from '../moderation-queue.ts';
import { hideReviewAsAdmin, lookAtReviewAsAdmin } from '../reviews.ts';
import { requireAdmin } from '../service.ts';
import { idParams, tags } from './params.ts';

/**
 * Report Management: user reports, the reviews tutors reported, and the reviews to look at (under the reports
 * permission: the admins who judge and hide reviews, on a site that takes payments or not).
 */
export const adminReportsRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
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
    '/api/admin/reviews/to-look-at',
    {
      schema: {
        summary: 'Report Management: reviews to look at, newest first',
        description: `Reviews of a pair where either account was younger than ${REVIEWS_TO_LOOK_AT.accountDays} days, with ${REVIEWS_TO_LOOK_AT.pairJobs} or more paid jobs together posted within ${REVIEWS_TO_LOOK_AT.windowDays} days before the review; published all the same. Each with both accounts' age and history. Page with the cursor. Needs reports.`,
        tags,
        querystring: reviewsQuerySchema,
        response: { 200: reviewsToLookAtPageSchema },
      },
    },
    async (request) => {
      await requireAdmin(request, db, 'reports');
      return listReviewsToLookAt({ db, cursor: request.query.cursor });
    },
  );

  app.post(
    '/api/admin/reviews/:id/looked-at',
    {
      schema: {
        summary: 'Mark a review to look at as looked at: it leaves the list (audited)',
        description: 'Not a review to look at: 404; looked at already: 409. Needs reports.',
        tags,
        params: idParams,
        response: { 200: reviewToLookAtSchema },
      },
    },
    async (request) => {
      const { user } = await requireAdmin(request, db, 'reports');
      return lookAtReviewAsAdmin({ db, actor: user, reviewId: request.params.id });
    },
  );
};
