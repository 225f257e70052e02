import { bigserial, customType, pgTable } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.ts';

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/**
 * The Socket.IO PostgreSQL adapter's table for payloads too large for a NOTIFY (its documented shape); the adapter
 * inserts and prunes the rows itself.
 */
export const socketIoAttachments = pgTable('socket_io_attachments', {
  id: bigserial('id', { mode: 'number' }).unique(),
  createdAt: timestamptz('created_at').defaultNow(),
  payload: bytea('payload'),
});
