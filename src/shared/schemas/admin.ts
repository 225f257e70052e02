import { z } from 'zod';
import {
  ADMIN_PERMISSIONS,
  BID_STATUSES,
  FLAG_DECISIONS,
  FLAG_STATUSES,
  MODERATION_CATEGORIES,
  REPORT_DECISIONS,
  REPORT_REASON_VALUES,
  REPORT_STATUSES,
  REQUEST_STATUSES,
  REQUEST_TYPES,
  ROLES,
} from '#shared/constants.ts';
import { paymentTotalsSchema } from './admin-payments.ts';
import { cursorSchema } from './cursor.ts';
import { requiredText } from './text-fields.ts';

// The admin panel (SPEC.md §2 "Admin panel", §8 admin texts), shared by the pages and the API.

export const adminMessages = {
  accessDenied: 'Access Denied - Invalid credentials or not authorized',
  checkFailed: 'Error - An error occurred while checking admin access.',
  accessGranted: 'Success - Admin access granted',
  statsFailed: 'Failed to fetch dashboard statistics.',
  reportsFailed: 'Failed to fetch reports',
  reviewsToLookAtFailed: 'Failed to fetch the reviews to look at',
  flagsFailed: 'Failed to fetch illegal content flags',
  repeatedSendersFailed: 'Failed to fetch repeated attempts',
  meetingsFailed: 'Failed to fetch meeting statistics',
  subAdminsFailed: 'Failed to fetch sub-admin data',
  auditFailed: 'Failed to fetch the audit log',
  onlyAdmins: 'Only admins can do this.',
  missingPermission: 'Your admin role does not include this page.',
  onlySuperAdmin: 'Only the super-admin can do this.',
  noteRequired: 'Please write a note.',
  noteTooLong: 'The note can be at most 1000 characters.',
  alreadyDecided: 'This has already been decided.',
  ownReport: 'A report about you is decided by another administrator.',
  permissionsRequired: 'Choose at least one permission.',
  accountRequired: 'Enter the e-mail address or username of an account.',
  accountTooLong: 'E-mail address or username must be at most 254 characters',
  accountNotFound: 'No account has this e-mail address or username.',
  alreadyAdmin: 'This account already has an admin role.',
  notSubAdmin: 'This account is not a sub-admin.',
  userFailed: 'Failed to fetch the user',
  reasonRequired: 'Please give a reason.',
  reasonTooLong: 'The reason can be at most 500 characters.',
  alreadySuspended: 'This user is already suspended.',
  notSuspended: 'This user is not suspended.',
  adminNotSuspendable: 'An admin cannot be suspended; remove the admin role first.',
  patternsFailed: 'Failed to fetch moderation patterns',
  patternRequired: 'Enter a pattern.',
  patternTooLong: 'A pattern can be at most 200 characters.',
  patternInvalid: 'This is not a valid regular expression.',
  patternNotLinear:
    'Lookaheads, lookbehinds and backreferences cannot be checked in linear time and are refused: write the pattern without them (a word boundary \\b often does).',
  patternUnsafe: 'This pattern would take too long to check on long messages and is refused: make it simpler.',
  patternMatchesEverything: 'This pattern matches almost every message.',
  sampleRequired: 'Enter a sample message the pattern should block.',
  sampleTooLong: 'Sample must be at most 1000 characters',
  sampleNotMatched: 'The pattern does not match the sample message.',
  patternExists: 'This pattern already exists in this category.',
  messagesFailed: 'Failed to fetch contact messages',
} as const;

/** Who the signed-in admin is: the super-admin may use every page, a sub-admin only its permissions. */
export const adminAccessSchema = z.object({
  roleName: z.string(),
  isSuperAdmin: z.boolean(),
  permissions: z.array(z.enum(ADMIN_PERMISSIONS)),
  /** Whether sign-in asks for an authenticator code (or a backup code) after the password. */
  twoFactorEnabled: z.boolean(),
  /** The super-admin's panel stays closed until the second factor is set up. */
  twoFactorRequired: z.boolean(),
});
export type AdminAccess = z.infer<typeof adminAccessSchema>;

export const adminStatsSchema = z.object({
  totalChats: z.number().int(),
  totalUsers: z.number().int(),
  activeReports: z.number().int(),
  flaggedContent: z.number().int(),
  /** Revenue and held funds, for admins with the payments permission (null for the others). */
  payments: paymentTotalsSchema.nullable(),
});
export type AdminStats = z.infer<typeof adminStatsSchema>;

const isoDate = z.iso.datetime({ offset: true });
const userRef = z.object({ id: z.uuid(), username: z.string() });
export type AdminUserRef = z.infer<typeof userRef>;

const ADMIN_LIST_ORDERS = ['newest', 'oldest'] as const;
export type AdminListOrder = (typeof ADMIN_LIST_ORDERS)[number];

/** The query of a paged admin table: an optional status filter, Created At newest or oldest first, the page cursor. */
const listQuery = <const S extends readonly [string, ...string[]]>(statuses: S) =>
  z.object({
    status: z.enum(statuses).optional(),
    order: z.enum(ADMIN_LIST_ORDERS).default('newest'),
    cursor: cursorSchema.optional(),
  });
const page = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), nextCursor: cursorSchema.nullable() });

/** Who decided a report or flag, when and why: null fields until someone has. */
const decisionSchema = z.object({
  decidedBy: userRef.nullable(),
  decidedAt: isoDate.nullable(),
  decisionNote: z.string().nullable(),
});

const noteSchema = requiredText(adminMessages.noteRequired, 1000, adminMessages.noteTooLong);

// Report Management.

export const adminReportsQuerySchema = listQuery(REPORT_STATUSES);
export const adminReportSchema = z.object({
  id: z.uuid(),
  reporter: userRef.nullable(),
  reportedUser: userRef,
  reason: z.enum(REPORT_REASON_VALUES),
  description: z.string(),
  status: z.enum(REPORT_STATUSES),
  createdAt: isoDate,
  ...decisionSchema.shape,
});
export type AdminReport = z.infer<typeof adminReportSchema>;
export const adminReportsPageSchema = page(adminReportSchema);
export type AdminReportsPage = z.infer<typeof adminReportsPageSchema>;

export const decideReportSchema = z.object({ status: z.enum(REPORT_DECISIONS), note: noteSchema });
export type DecideReportInput = z.infer<typeof decideReportSchema>;

// Illegal Content.

export const adminFlagsQuerySchema = listQuery(FLAG_STATUSES);
export const adminFlagSchema = z.object({
  id: z.uuid(),
  flagType: z.enum(MODERATION_CATEGORIES),
  content: z.string(),
  description: z.string().nullable(),
  sender: userRef.nullable(),
  status: z.enum(FLAG_STATUSES),
  createdAt: isoDate,
  ...decisionSchema.shape,
});
export type AdminFlag = z.infer<typeof adminFlagSchema>;
export const adminFlagsPageSchema = page(adminFlagSchema);
export type AdminFlagsPage = z.infer<typeof adminFlagsPageSchema>;

/** Refused attempts to send a text, every one counted (the flags stop at a few an hour for each user). */
export const refusedAttemptsSchema = z.object({
  last24Hours: z.number().int(),
  last30Days: z.number().int(),
  total: z.number().int(),
});
export type RefusedAttempts = z.infer<typeof refusedAttemptsSchema>;
/** A user with repeated refused attempts in the last 24 hours, at the top of Illegal Content. */
export const repeatedSenderSchema = z.object({
  user: userRef,
  attempts: z.number().int(),
  latest: z.object({ flagType: z.enum(MODERATION_CATEGORIES), content: z.string(), createdAt: isoDate }).nullable(),
});
export type RepeatedSender = z.infer<typeof repeatedSenderSchema>;
export const repeatedSendersSchema = z.object({ items: z.array(repeatedSenderSchema) });
export type RepeatedSenders = z.infer<typeof repeatedSendersSchema>;

export const decideFlagSchema = z.object({ status: z.enum(FLAG_DECISIONS), note: noteSchema });
export type DecideFlagInput = z.infer<typeof decideFlagSchema>;

// Meeting Statistics.

const MEETING_STATUS_LABELS = ['Scheduled', 'Completed', 'Cancelled'] as const;
export const adminMeetingStatsSchema = z.object({
  totalMeetings: z.number().int(),
  jitsiMeetings: z.number().int(),
  recentMeetings: z.array(
    z.object({
      id: z.uuid(),
      platform: z.string(),
      title: z.string(),
      startTime: isoDate,
      status: z.enum(MEETING_STATUS_LABELS),
    }),
  ),
});
export type AdminMeetingStats = z.infer<typeof adminMeetingStatsSchema>;

// Sub-Admin Management.

export const subAdminsQuerySchema = z.object({
  order: z.enum(ADMIN_LIST_ORDERS).default('newest'),
  cursor: cursorSchema.optional(),
});
export const subAdminSchema = z.object({
  userId: z.uuid(),
  username: z.string(),
  roleName: z.string(),
  permissions: z.array(z.enum(ADMIN_PERMISSIONS)),
  createdAt: isoDate,
});
export type SubAdmin = z.infer<typeof subAdminSchema>;
export const subAdminsPageSchema = page(subAdminSchema);
export type SubAdminsPage = z.infer<typeof subAdminsPageSchema>;

const permissionsSchema = z
  .array(z.enum(ADMIN_PERMISSIONS), { error: adminMessages.permissionsRequired })
  .min(1, adminMessages.permissionsRequired)
  .transform((permissions) => ADMIN_PERMISSIONS.filter((permission) => permissions.includes(permission)));

export const addSubAdminSchema = z.object({
  /** The e-mail address or username of an existing account. */
  account: requiredText(adminMessages.accountRequired, 254, adminMessages.accountTooLong),
  permissions: permissionsSchema,
});
export type AddSubAdminInput = z.input<typeof addSubAdminSchema>;
export const updateSubAdminSchema = z.object({ permissions: permissionsSchema });
export type UpdateSubAdminInput = z.input<typeof updateSubAdminSchema>;

// A user's page: who they are, what they did, what was said about them; suspend and reinstate.

export const adminUserSchema = z.object({
  profile: z.object({
    id: z.uuid(),
    username: z.string(),
    email: z.string(),
    fullName: z.string().nullable(),
    role: z.enum(ROLES),
    vhNumber: z.number().int(),
    image: z.string().nullable(),
    createdAt: isoDate,
    adminRole: z.string().nullable(),
    suspendedAt: isoDate.nullable(),
    suspensionReason: z.string().nullable(),
  }),
  requests: z.array(
    z.object({
      id: z.uuid(),
      type: z.enum(REQUEST_TYPES),
      subjectName: z.string(),
      status: z.enum(REQUEST_STATUSES),
      createdAt: isoDate,
    }),
  ),
  bids: z.array(
    z.object({
      id: z.uuid(),
      requestId: z.uuid(),
      subjectName: z.string(),
      amountCents: z.int(),
      status: z.enum(BID_STATUSES),
      createdAt: isoDate,
    }),
  ),
  reportsBy: z.array(adminReportSchema),
  reportsAgainst: z.array(adminReportSchema),
  flags: z.array(adminFlagSchema),
  refusedAttempts: refusedAttemptsSchema,
});
export type AdminUser = z.infer<typeof adminUserSchema>;

export const suspensionSchema = z.object({
  reason: requiredText(adminMessages.reasonRequired, 500, adminMessages.reasonTooLong),
});
export type SuspensionInput = z.infer<typeof suspensionSchema>;

// Moderation patterns.

export const PATTERN_STATUSES = ['active', 'inactive'] as const;
export const patternsQuerySchema = listQuery(PATTERN_STATUSES);
export const moderationPatternSchema = z.object({
  id: z.uuid(),
  pattern: z.string(),
  category: z.enum(MODERATION_CATEGORIES),
  description: z.string().nullable(),
  isActive: z.boolean(),
  createdAt: isoDate,
});
export type AdminModerationPattern = z.infer<typeof moderationPatternSchema>;
export const patternsPageSchema = page(moderationPatternSchema);
export type PatternsPage = z.infer<typeof patternsPageSchema>;

export const createPatternSchema = z.object({
  /** A case-insensitive regular expression. */
  pattern: z
    .string({ error: adminMessages.patternRequired })
    .min(1, adminMessages.patternRequired)
    .max(200, adminMessages.patternTooLong),
  category: z.enum(MODERATION_CATEGORIES),
  description: z
    .string()
    .trim()
    .max(200)
    .optional()
    .transform((text) => text || null),
  /** A message the pattern must block: the pattern is tried on it before it is saved. */
  sample: requiredText(adminMessages.sampleRequired, 1000, adminMessages.sampleTooLong),
});
export type CreatePatternInput = z.input<typeof createPatternSchema>;
export const setPatternActiveSchema = z.object({ isActive: z.boolean() });

// Contact messages.

export const CONTACT_MESSAGE_STATUSES = ['open', 'handled'] as const;
export const contactMessagesQuerySchema = listQuery(CONTACT_MESSAGE_STATUSES);
export const contactMessageSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string(),
  subject: z.string(),
  message: z.string(),
  createdAt: isoDate,
  handled: z.boolean(),
  handledBy: userRef.nullable(),
  handledAt: isoDate.nullable(),
});
export type AdminContactMessage = z.infer<typeof contactMessageSchema>;
export const contactMessagesPageSchema = page(contactMessageSchema);
export type ContactMessagesPage = z.infer<typeof contactMessagesPageSchema>;
export const markHandledSchema = z.object({ handled: z.boolean() });

// Audit log.

export const auditLogQuerySchema = z.object({ cursor: cursorSchema.optional() });
const auditEntrySchema = z.object({
  id: z.uuid(),
  /** The name is null once the account is erased: only its id is kept. */
  actor: z.object({ id: z.uuid().nullable(), name: z.string().nullable() }),
  action: z.string(),
  objectType: z.string(),
  objectId: z.string(),
  before: z.unknown(),
  after: z.unknown(),
  createdAt: isoDate,
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
export const auditLogPageSchema = page(auditEntrySchema);
export type AuditLogPage = z.infer<typeof auditLogPageSchema>;
