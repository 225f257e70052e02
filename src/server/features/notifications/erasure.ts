import { eq } from 'drizzle-orm';
import { DELETED_USER_NAME } from '#shared/schemas/account-deletion.ts';
import type { Executor } from '../../db/client.ts';
import { withoutName } from '#shared/rules/erased-name.ts';
import { naming, writeRewritten, type ErasedName } from '../../db/erased-names.ts';
import { emailLogs, notifications, studentNotifications, teacherNotifications } from '../../db/schema/notifications.ts';

/**
 * An erased user's notifications and mail log go; in other people's notifications the user's name becomes "Deleted
 * user" (the offers of an erased tutor, a notice that names them).
 */
export async function eraseNotificationsOf({ db, userId, name }: { db: Executor; userId: string; name: ErasedName }) {
  await db.delete(notifications).where(eq(notifications.userId, userId));
  await db.delete(teacherNotifications).where(eq(teacherNotifications.teacherId, userId));
  await db.delete(studentNotifications).where(eq(studentNotifications.studentId, userId));
  await db.delete(emailLogs).where(eq(emailLogs.recipientEmail, name.email));
  await db
    .update(studentNotifications)
    .set({ tutorName: DELETED_USER_NAME, tutorAvatar: null })
    .where(eq(studentNotifications.tutorId, userId));
  const named = await db
    .select({ id: notifications.id, message: notifications.message })
    .from(notifications)
    .where(naming(notifications.message, name));
  await writeRewritten(
    db,
    notifications,
    [notifications.message],
    named.map((notice) => ({ id: notice.id, values: [withoutName(notice.message, 'text', name)] })),
  );
}
