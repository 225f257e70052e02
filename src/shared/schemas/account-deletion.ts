import { z } from 'zod';
import { emailSchema } from './auth.ts';
import { cursorSchema } from './cursor.ts';

// "Delete my account" (/settings/account) and "Restore my account" (sign-in), and the admins' list of deletions.

export { ACCOUNT_DELETION_GRACE_DAYS } from '#shared/constants.ts';

/** Waiting for its grace period to end, given back by its owner, or erased. */
export const ACCOUNT_DELETION_STATUSES = ['pending', 'restored', 'erased'] as const;
export type AccountDeletionStatus = (typeof ACCOUNT_DELETION_STATUSES)[number];

/** What an erased account shows wherever others still see its messages and reviews. */
export const DELETED_USER_NAME = 'Deleted user';

/** Why an erasure waits: the money the service must settle first. */
export const DELETION_BLOCKS = ['open_case', 'money'] as const;
export type DeletionBlock = (typeof DELETION_BLOCKS)[number];

export const accountDeletionMessages = {
  passwordRequired: 'Password is required',
  blocked: {
    open_case:
      'Your account cannot be deleted while a refund request, a dispute or a chargeback of yours is open. Once it is decided, you can delete your account.',
    money:
      'Your account cannot be deleted while money is held for your jobs, waits to be paid out to you, or is owed by you. Once it is settled, you can delete your account.',
  } satisfies Record<DeletionBlock, string>,
  admin:
    'Admin accounts are deleted outside the app: the super-admin’s is managed by ADMIN_EMAIL, and a sub-admin’s once the super-admin has removed their role.',
  alreadyPending: 'Your account is already being deleted.',
  restored: 'Your account has been restored. Welcome back!',
  wrongCredentials: 'Invalid email or password',
  nothingToRestore: 'This account is not being deleted, or it can no longer be restored.',
} as const;

const passwordSchema = z
  .string({ error: accountDeletionMessages.passwordRequired })
  .min(1, accountDeletionMessages.passwordRequired)
  .max(128, accountDeletionMessages.passwordRequired);

export const deleteAccountSchema = z.object({ password: passwordSchema });
export const restoreAccountSchema = z.object({ email: emailSchema, password: passwordSchema });

const isoDateTime = z.iso.datetime({ offset: true });

/** The owner's view right after asking: when the account will be erased. */
export const accountDeletionSchema = z.object({ requestedAt: isoDateTime, eraseAfter: isoDateTime });

/** A row of the admins' list: the user by id, and by username only while the account is not erased. */
export const adminAccountDeletionSchema = z.object({
  id: z.uuid(),
  userId: z.uuid(),
  username: z.string().nullable().describe('Null once the account is erased'),
  status: z.enum(ACCOUNT_DELETION_STATUSES),
  requestedAt: isoDateTime,
  eraseAfter: isoDateTime,
  restoredAt: isoDateTime.nullable(),
  erasedAt: isoDateTime.nullable(),
  blockedReason: z.enum(DELETION_BLOCKS).nullable().describe('Why a due erasure waits'),
});
export const adminAccountDeletionPageSchema = z.object({
  items: z.array(adminAccountDeletionSchema),
  nextCursor: z.string().nullable(),
});
export const adminAccountDeletionQuerySchema = z.object({ cursor: cursorSchema.optional() });

export type DeleteAccountInput = z.infer<typeof deleteAccountSchema>;
export type RestoreAccountInput = z.infer<typeof restoreAccountSchema>;
export type AccountDeletionView = z.infer<typeof accountDeletionSchema>;
export type AdminAccountDeletion = z.infer<typeof adminAccountDeletionSchema>;
export type AdminAccountDeletionPage = z.infer<typeof adminAccountDeletionPageSchema>;
