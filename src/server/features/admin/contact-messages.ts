import { and, eq } from 'drizzle-orm';
import type { AdminContactMessage, AdminListOrder, ContactMessagesPage } from '#shared/schemas/admin.ts';
import type { Database, Executor } from '../../db/client.ts';
import { cursorMicros, keysetOrderBy, pastCursor, toPage } from '../../db/keyset.ts';
import { users } from '../../db/schema/auth.ts';
import { contactMessages } from '../../db/schema/pages.ts';
import { AppError } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import { recordAdminAction } from './audit.ts';

// The contact form's messages, with a handled mark (who and when).

const PAGE_SIZE = 25;

function selectMessages(db: Executor) {
  return db
    .select({
      id: contactMessages.id,
      name: contactMessages.name,
      email: contactMessages.email,
      subject: contactMessages.subject,
      message: contactMessages.message,
      createdAt: contactMessages.createdAt,
      handled: contactMessages.handled,
      handlerId: users.id,
      handlerName: users.username,
      handledAt: contactMessages.handledAt,
      cursorMicros: cursorMicros(contactMessages.createdAt),
    })
    .from(contactMessages)
    .leftJoin(users, eq(users.id, contactMessages.handledBy));
}

const toContactMessage = (row: Awaited<ReturnType<typeof selectMessages>>[number]): AdminContactMessage => ({
  id: row.id,
  name: row.name,
  email: row.email,
  subject: row.subject,
  message: row.message,
  createdAt: row.createdAt.toISOString(),
  handled: row.handled,
  handledBy: row.handled && row.handlerId && row.handlerName ? { id: row.handlerId, username: row.handlerName } : null,
  handledAt: row.handledAt?.toISOString() ?? null,
});

/** Contact messages, newest first unless asked otherwise; open or handled ones only when asked. */
export async function listContactMessages({
  db,
  status,
  order,
  cursor,
}: {
  db: Executor;
  status?: 'open' | 'handled';
  order: AdminListOrder;
  cursor?: string;
}): Promise<ContactMessagesPage> {
  const rows = await selectMessages(db)
    .where(
      and(
        status ? eq(contactMessages.handled, status === 'handled') : undefined,
        pastCursor(contactMessages.createdAt, contactMessages.id, cursor, order),
      ),
    )
    .orderBy(...keysetOrderBy(contactMessages.createdAt, contactMessages.id, order))
    .limit(PAGE_SIZE + 1);
  const { page, nextCursor } = toPage(rows, PAGE_SIZE);
  return { items: page.map(toContactMessage), nextCursor };
}

/** Marks a message handled (or open again): 404 unknown. */
export async function markContactMessage({
  db,
  actor,
  messageId,
  handled,
}: {
  db: Database;
  actor: Pick<SessionUser, 'id' | 'username'>;
  messageId: string;
  handled: boolean;
}): Promise<AdminContactMessage> {
  await db.transaction(async (tx) => {
    const [before] = await tx
      .select({ handled: contactMessages.handled })
      .from(contactMessages)
      .where(eq(contactMessages.id, messageId))
      .for('update');
    if (!before) throw new AppError('NOT_FOUND');
    await tx
      .update(contactMessages)
      .set(
        handled
          ? { handled, handledBy: actor.id, handledAt: new Date() }
          : { handled, handledBy: null, handledAt: null },
      )
      .where(eq(contactMessages.id, messageId));
    await recordAdminAction(tx, {
      actor,
      action: handled ? 'contact_message.handle' : 'contact_message.reopen',
      objectType: 'contact_message',
      objectId: messageId,
      before,
      after: { handled },
    });
  });
  const [row] = await selectMessages(db).where(eq(contactMessages.id, messageId));
  return toContactMessage(row!);
}
