import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { paths } from '#shared/paths.ts';
import {
  accountMessages,
  changeEmailSchema,
  dataExportParamsSchema,
  dataExportSchema,
  latestDataExportSchema,
  confirmEmailChangeQuerySchema,
  deviceListSchema,
  deviceParamsSchema,
  signedOutDevicesSchema,
} from '#shared/schemas/account.ts';
import {
  accountDeletionMessages,
  accountDeletionSchema,
  deleteAccountSchema,
  restoreAccountSchema,
} from '#shared/schemas/account-deletion.ts';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';
import { requireSession, requireUser } from '../../http/session.ts';
import { sendStoredFile } from '../../http/send-file.ts';
import type { Realtime } from '../../platform/realtime/realtime.ts';
import type { Storage } from '../../platform/storage/storage.ts';
import { hasAdminRole } from '../admin/service.ts';
import { confirmEmailChange, endDevice, endOtherDevices, listDevices, requestEmailChange } from '../auth/service.ts';
import { requestAccountDeletion, restoreAccount } from './deletion.ts';
import { findLatestDataExport, getDataExportFile, requestDataExport } from './export/service.ts';

const tags = ['account'];

const zipAnswer = {
  description: 'The zip of the export',
  content: { 'application/zip': { schema: z.string().meta({ format: 'binary' }) } },
};

type AccountRoutesOptions = {
  db: Database;
  realtime: Realtime;
  storage: Storage;
  publicUrl: string;
  /** The erasure log (decision 0062), where a restored account's unfinished erasure is declined. */
  erasureLog: string;
  /** Tells the export builder there is work, so it starts at once rather than at its next round. */
  onExportRequested: () => void;
};

export const accountRoutes: FastifyPluginAsyncZod<AccountRoutesOptions> = async (
  app,
  { db, realtime, storage, publicUrl, erasureLog, onExportRequested },
) => {
  app.get(
    '/api/account/devices',
    {
      schema: {
        summary: 'The signed-in user’s devices: each session by its id, with its device and browser (no tokens)',
        tags,
        response: { 200: deviceListSchema },
      },
    },
    async (request, reply) => {
      const { user, sessionId } = await requireSession(request);
      reply.header('cache-control', 'no-store');
      return listDevices({ db, userId: user.id, currentSessionId: sessionId });
    },
  );

  app.delete(
    '/api/account/devices/:sessionId',
    {
      schema: {
        summary: 'Sign out one of the signed-in user’s devices; its sockets close (another user’s session: 404)',
        tags,
        params: deviceParamsSchema,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const ended = await endDevice({ db, userId: user.id, sessionId: request.params.sessionId });
      realtime.endSession(ended);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/account/devices/sign-out-others',
    {
      schema: {
        summary: 'Sign out every device of the signed-in user but this one',
        tags,
        response: { 200: signedOutDevicesSchema },
      },
    },
    async (request) => {
      const { user, sessionId } = await requireSession(request);
      const ended = await endOtherDevices({ db, userId: user.id, currentSessionId: sessionId });
      for (const id of ended) realtime.endSession(id);
      return { signedOut: ended.length };
    },
  );

  app.post(
    '/api/account/email',
    {
      config: { rateLimit: { max: 5, timeWindow: '10 minutes' } },
      schema: {
        summary: 'Ask to change the e-mail address (password required): a link to the new one, a notice to the old one',
        description: 'The address changes once the link is opened; sessions are kept. Admins: 403 (ADMIN_EMAIL).',
        tags,
        body: changeEmailSchema,
        response: { 202: z.null() },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      // An admin's address is the operator's to manage (the super-admin's comes from ADMIN_EMAIL).
      if (await hasAdminRole(db, user.id))
        throw new AppError('FORBIDDEN', { message: accountMessages.adminEmailManaged });
      await requestEmailChange({ db, publicUrl, userId: user.id, input: request.body });
      return reply.status(202).send(null);
    },
  );

  app.get(
    '/api/account/email/confirm',
    {
      config: { rateLimit: { max: 20, timeWindow: '10 minutes' } },
      schema: {
        // A mail's link, not an API call: it answers only with a redirect to the settings page, so it is left out of the
        // API's description (its refusals are tested with the e-mail change).
        hide: true,
        security: [],
        summary: 'The link of the confirmation mail: makes the change once, then opens the account settings',
        tags,
        querystring: confirmEmailChangeQuerySchema,
        response: { 302: z.null() },
      },
    },
    async (request, reply) => {
      const outcome = await confirmEmailChange({ db, token: request.query.token });
      reply.header('cache-control', 'no-store');
      return reply.redirect(paths.settings.account.getHref(outcome), 302);
    },
  );

  app.post(
    '/api/account/exports',
    {
      config: { rateLimit: { max: 5, timeWindow: '1 hour' } },
      schema: {
        summary: 'Start building a zip of everything the service holds about the signed-in user',
        description:
          'One at a time: 409 while one is being built. An in-app notice and an e-mail follow when it is ready.',
        tags,
        response: { 202: dataExportSchema },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const started = await requestDataExport({ db, userId: user.id });
      onExportRequested();
      return reply.status(202).send(started);
    },
  );

  app.get(
    '/api/account/exports/latest',
    {
      schema: {
        summary: 'The signed-in user’s newest data export and where it stands (null when none)',
        tags,
        response: { 200: latestDataExportSchema },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      reply.header('cache-control', 'no-store');
      return findLatestDataExport({ db, userId: user.id });
    },
  );

  app.get(
    '/api/account/exports/:exportId/download',
    {
      schema: {
        summary: 'Download the signed-in user’s own data export, within 7 days of it being ready',
        description: 'Another user’s export, or one past its 7 days: 404.',
        tags,
        params: dataExportParamsSchema,
        response: { 200: zipAnswer },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const { file, filename } = await getDataExportFile({
        db,
        storage,
        userId: user.id,
        exportId: request.params.exportId,
      });
      return sendStoredFile(reply, file, { disposition: 'attachment', filename, cacheControl: 'private, no-store' });
    },
  );

  app.post(
    '/api/account/deletion',
    {
      config: { rateLimit: { max: 5, timeWindow: '10 minutes' } },
      schema: {
        summary: 'Delete the signed-in user’s account (password required): locked at once, erased after 14 days',
        description:
          'Every session and socket ends; the user is hidden from search, their open requests close and pending offers ' +
          'are withdrawn. Refused (409) while a refund request or chargeback is open or any money is held, ' +
          'available or owed; admins: 403 (ADMIN_EMAIL).',
        tags,
        body: deleteAccountSchema,
        response: { 202: accountDeletionSchema },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const { deletion, endedSessionIds } = await requestAccountDeletion({ db, userId: user.id, input: request.body });
      for (const id of endedSessionIds) realtime.endSession(id);
      return reply.status(202).send(deletion);
    },
  );

  app.post(
    '/api/account/deletion/restore',
    {
      config: { rateLimit: { max: 5, timeWindow: '10 minutes' } },
      schema: {
        summary: 'Restore an account being deleted, within its 14 days, with its address and password',
        description:
          'No session (a locked account has none): the user signs in afterwards. Wrong address or password: 400; ' +
          'wrong passwords spend the address’s sign-in budget, and once it is spent: 429 ACCOUNT_LOCKED.',
        security: [],
        tags,
        body: restoreAccountSchema,
        response: { 200: z.object({ message: z.string() }) },
      },
    },
    async (request) => {
      await restoreAccount({ db, erasureLog, input: request.body });
      return { message: accountDeletionMessages.restored };
    },
  );
};
