// Business constants of SPEC.md §9 (and the value lists of §3–§5). Isomorphic: no I/O.
// The database check constraints are built from these arrays, so a value lives in one place.

// Requests: open requests expire 48 h after creation (SPEC §4).
export const REQUEST_EXPIRY_HOURS = 48;
export const REQUEST_EXPIRY_MS = REQUEST_EXPIRY_HOURS * 60 * 60 * 1000;

export const REQUEST_TYPES = ['tutoring', 'assignment'] as const;
export type RequestType = (typeof REQUEST_TYPES)[number];

export const REQUEST_STATUSES = ['open', 'pending', 'assigned', 'accepted', 'completed', 'closed'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

export const EDUCATION_LEVELS = ['high_school', 'undergraduate', 'graduate', 'phd'] as const;
export type EducationLevel = (typeof EDUCATION_LEVELS)[number];

/** Requests a teacher may still bid on and a student may still accept an offer on (while not expired). */
export const OPEN_REQUEST_STATUSES = ['open', 'pending'] as const satisfies readonly RequestStatus[];

/** The wizard's "exam preparation or general support" answer for tutoring. */
export const SUPPORT_TYPES = ['exam_prep', 'general_support'] as const;
export type SupportType = (typeof SUPPORT_TYPES)[number];

/** The periodic job that closes expired requests runs this often (and once at start). */
export const REQUEST_EXPIRY_JOB_INTERVAL_MS = 60_000;
/** Page sizes of the student's request list and the teacher's job list. */
export const REQUESTS_PAGE_SIZE = 20;
export const DIRECT_REQUEST_STATES = ['waiting', 'declined', 'unanswered', 'opened'] as const; // decision 0061
export const JOBS_PAGE_SIZE = 20;

// Budgets in USD cents (SPEC §5 "Standard request form" and "Wizard budgets").
export const TUTORING_BUDGET_CENTS = { min: 800, max: 1500 } as const;
export const ASSIGNMENT_BUDGET_CENTS = { min: 500, max: 500_000, defaultMax: 10_000 } as const;
/** Stored as the maximum when an assignment has none ($9999); displayed as "$min+". */
export const FALLBACK_MAX_BUDGET_CENTS = 999_900;
/** Stored as the assignment maximum when the wizard's budget step is skipped ($999). */
export const WIZARD_SKIP_MAX_BUDGET_CENTS = 99_900;
/** Maxima that mean "no maximum" and must never be displayed as a number. */
export const OPEN_ENDED_MAX_BUDGETS_CENTS = [FALLBACK_MAX_BUDGET_CENTS, WIZARD_SKIP_MAX_BUDGET_CENTS] as const;

export const DESCRIPTION_MIN_LENGTH = 10;
/** Notification description is cut here (plus "..."); job cards cut at JOB_CARD_DESCRIPTION_LENGTH. */
export const NOTIFICATION_DESCRIPTION_LENGTH = 100;
export const JOB_CARD_DESCRIPTION_LENGTH = 180;

// Subjects: teachers pick several subjects in this category, one in any other (SPEC §2 Register).
export const MATHEMATICS_CATEGORY = 'Mathematics';

// Tutor profiles and reviews: text limits, how long a review stays editable, and the reviews page size.
export const REVIEW = {
  headlineMax: 80,
  aboutMax: 1000,
  bodyMax: 1000,
  editableDays: 7,
  pageSize: 10,
} as const;
export const REVIEW_EDITABLE_MS = REVIEW.editableDays * 24 * 60 * 60 * 1000;
/**
 * Reviews to look at (admins, Report Management): a review is published all the same, and listed for the admins too,
 * when its student's or tutor's account is younger than `accountDays` and the pair has at least `pairJobs` paid jobs
 * together posted within the `windowDays` before it: what a sock-puppet account rating its own tutor looks like.
 */
export const REVIEWS_TO_LOOK_AT = { accountDays: 30, windowDays: 30, pairJobs: 2, pageSize: 20 } as const;

// Bids: one per teacher per request; only one can be accepted.
export const BID_STATUSES = ['pending', 'accepted', 'rejected'] as const;

// Uploads (SPEC §5 "Request attachments", "Uploads in chat", §9 avatar limit).
export const MIB = 1024 * 1024;
export const REQUEST_FILE = { maxBytes: 10 * MIB, maxFiles: 10 } as const;
/** Request attachments: images, PDF, Word, Excel and plain text (SPEC §5), as the browser names them. */
export const REQUEST_ATTACHMENT_TYPES = [
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'image/bmp',
  'image/heic',
  'image/avif',
  'application/pdf',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.ms-excel',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'text/plain',
] as const;
export const AVATAR = {
  maxBytes: 5 * MIB,
  types: ['image/jpeg', 'image/jpg', 'image/png', 'image/webp'],
} as const;
export const ATTACHMENT_NAME_SHORTEN_AT = 20;

// Chat (SPEC §2 "Chat", §5 "Uploads in chat"). SPEC gives no size limit for chat files: 25 MB holds a phone
// photo or a scanned document comfortably while keeping one upload in memory cheap.
export const CHAT_ATTACHMENT = {
  maxBytes: 25 * MIB,
  types: [
    'image/jpeg',
    'image/png',
    'image/gif',
    'image/webp',
    'image/svg+xml',
    'application/pdf',
    'application/msword',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    'application/vnd.ms-excel',
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    'application/vnd.ms-powerpoint',
    'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    'text/plain',
  ],
  /** Raster images are shown inline; everything else (SVG included) is only ever downloaded. */
  inlineTypes: ['image/jpeg', 'image/png', 'image/gif', 'image/webp'],
  /** The composer's document picker (SPEC §2). */
  documentExtensions: ['.pdf', '.doc', '.docx', '.xls', '.xlsx', '.ppt', '.pptx', '.txt'],
} as const;
export type ChatAttachmentType = (typeof CHAT_ATTACHMENT.types)[number];
export const CHAT_MESSAGE_MAX_LENGTH = 10_000;
/** Room list and message history pages: default and largest page size. */
export const CHAT_ROOMS_PAGE = { defaultLimit: 30, maxLimit: 100 } as const;
export const CHAT_MESSAGES_PAGE = { defaultLimit: 50, maxLimit: 100 } as const;
/** The room list shows this much of the last message. */
export const CHAT_PREVIEW_LENGTH = 100;

// Accounts (SPEC §5 Login / Register / New password).
export const PASSWORD_MIN = 6;
export const RESET_PASSWORD_MIN = 8;
export const NAME_MIN = 2;
export const ROLES = ['student', 'teacher'] as const;
export type Role = (typeof ROLES)[number];
export const DEFAULT_ROLE: Role = 'student';
export const AVAILABILITY_DEBOUNCE_MS = 500;
export const RESET_LINK_VALIDITY_MINUTES = 10;
export const MINIMUM_AGE = 13;
export const ACCOUNT_DELETION_GRACE_DAYS = 14; // days a deleted account can be restored before it is erased

// The AI assistant is a pseudo-user row with the all-zero id (SPEC §3).
export const AI_USER_ID = '00000000-0000-0000-0000-000000000000';
export const AI_USER_NAME = 'Guru AI';

// Virtual Help numbers: 3 digits, not unique, so a search returns up to 10 people.
export const VH_NUMBER = { min: 100, max: 999 } as const;
export const VH_SEARCH_LIMIT = 10;

// Meetings: join from 10 min before to 10 h after the start (SPEC §4).
export const MEETING_JOIN_WINDOW = {
  beforeMs: 10 * 60 * 1000,
  afterMs: 10 * 60 * 60 * 1000,
} as const;
export const MEETING_STATUS_REFRESH_MS = 30_000;
export const RECENT_MEETINGS_LIMIT = 5;
/** A start time this little in the past still counts as "now" (the picker's minimum, late by the request's trip). */
export const MEETING_START_GRACE_MS = 60_000;
export const MEETING_TITLE_MAX_LENGTH = 200;
export const MEETING_DESCRIPTION_MAX_LENGTH = 2_000;
/** Reminders to both participants this long before the start; one not yet due when the meeting is created is skipped. */
export const MEETING_REMINDERS = [
  { kind: '24h', beforeMs: 24 * 60 * 60 * 1000, label: 'in 24 hours' },
  { kind: '1h', beforeMs: 60 * 60 * 1000, label: 'in 1 hour' },
] as const;
export const MEETING_REMINDER_KINDS = ['24h', '1h'] as const;
export const MEETING_REMINDERS_INTERVAL_MS = 60_000;

// Notifications (SPEC §9).
export const NOTIFICATION_LIST_LIMIT = 20;
export const NOTIFICATION_BADGE_MAX = 99;
/** job: a new request for a teacher; offer: a bid for a student; general: anything else (e.g. an accepted offer). */
export const NOTIFICATION_KINDS = ['job', 'offer', 'general'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];
export const BACKGROUND_MESSAGE_TEXT_LENGTH = 50;
export const MAIL_OUTBOX_STATUSES = ['pending', 'sent', 'failed'] as const;

/**
 * The ledger's accounts (USD cents; a balance is the sum of the account's entries). Student payments, refunds and
 * both tutor earnings accounts belong to one user, held funds to one job (its request); the platform's are single.
 */
export const LEDGER_USER_ACCOUNT_KINDS = [
  'student_payments',
  'refunds',
  'tutor_earnings_pending',
  'tutor_earnings_available',
  'payouts',
] as const;
export const LEDGER_JOB_ACCOUNT_KINDS = ['held_funds'] as const;
export const LEDGER_PLATFORM_ACCOUNT_KINDS = ['platform_commission', 'provider_fees'] as const;
export const LEDGER_ACCOUNT_KINDS = [
  ...LEDGER_USER_ACCOUNT_KINDS,
  ...LEDGER_JOB_ACCOUNT_KINDS,
  ...LEDGER_PLATFORM_ACCOUNT_KINDS,
] as const;
/** What a ledger transaction records. */
export const LEDGER_TRANSACTION_KINDS = [
  'payment',
  'release',
  'refund',
  'payout',
  'provider_fee',
  'adjustment',
] as const;
/**
 * A checkout: accepting an offer waits for the student's payment of the bid. Awaiting payment it holds the request;
 * paid, the offer is accepted; lapsed or cancelled, the offer is open again.
 */
export const CHECKOUT_STATUSES = ['awaiting_payment', 'paid', 'lapsed', 'cancelled'] as const;
export type CheckoutStatus = (typeof CHECKOUT_STATUSES)[number];
/** The providers that take payments (with `none` nothing is charged and no checkout is made). */
export const CHECKOUT_PROVIDERS = ['test', 'manual', 'stripe'] as const;
export type CheckoutProvider = (typeof CHECKOUT_PROVIDERS)[number];
/** How long a checkout holds the request: a card is paid at once, a bank transfer takes days. */
export const CHECKOUT_HOLD_MS: Record<CheckoutProvider, number> = {
  test: 30 * 60 * 1000,
  manual: 5 * 24 * 60 * 60 * 1000,
  stripe: 30 * 60 * 1000,
};
export const CHECKOUT_LAPSE_JOB_INTERVAL_MS = 60_000;
/**
 * A job's money as screens show it: not charged (no checkout: accepted before payments, or under `none`), awaiting
 * payment, held for the job, frozen by an open refund request, released to the tutor, refunded, or partly both.
 */
export const JOB_PAYMENT_STATES = [
  'not_charged',
  'awaiting_payment',
  'held',
  'frozen',
  'released',
  'refunded',
  'partially_refunded',
] as const;
export type JobPaymentState = (typeof JOB_PAYMENT_STATES)[number];
/**
 * Why money held for a job goes back to the student: the two refund reasons the terms allow (the student asks), the
 * tutor withdrawing, both agreeing to cancel, or the tutor's account suspended mid-job (admins decide).
 */
export const REFUND_REASONS = [
  'missed_session',
  'missed_deadline',
  'tutor_withdrew',
  'cancelled_by_agreement',
  'tutor_suspended',
] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];
/** The reasons a student can choose when asking for a refund. */
export const STUDENT_REFUND_REASONS = ['missed_session', 'missed_deadline'] as const satisfies readonly RefundReason[];
/**
 * A refund request's life: the tutor answers (accept: refunding; contest, or no answer in time: with admins), admins
 * decide (refunding, or declined); refunding until the provider confirms, then refunded or partially refunded. A
 * proposal to cancel awaits the other person's agreement.
 */
export const REFUND_REQUEST_STATUSES = [
  'awaiting_tutor',
  'awaiting_agreement',
  'with_admins',
  'refunding',
  'refunded',
  'partially_refunded',
  'declined',
] as const;
export type RefundRequestStatus = (typeof REFUND_REQUEST_STATUSES)[number];
/** The statuses of a request still open: the job's money is frozen while one is. */
export const OPEN_REFUND_REQUEST_STATUSES = [
  'awaiting_tutor',
  'awaiting_agreement',
  'with_admins',
  'refunding',
] as const satisfies readonly RefundRequestStatus[];
/** How long the tutor has to accept or contest a refund request before it goes to admins. */
export const REFUND_ANSWER_DAYS = 3;
/** A tutor who has not pressed Join within this long after a session's start missed it. */
export const MISSED_SESSION_GRACE_MS = 15 * 60 * 1000;

/** A tutor's payout of their whole available balance: requested, then paid by the provider (or an admin's record). */
export const PAYOUT_STATUSES = ['requested', 'paid'] as const;
/**
 * A released job's Stripe transfer: waiting for the tutor's payouts to be enabled (or for its call), made,
 * cancelled (a chargeback lost before it was made took the share back), or failed (Stripe refused it, or it failed
 * every try: it waits for an admin's Retry).
 */
export const STRIPE_TRANSFER_STATUSES = ['waiting', 'transferred', 'cancelled', 'failed'] as const;
/** How a chargeback ended: the platform kept the money, or the card holder got it back. */
export const STRIPE_DISPUTE_OUTCOMES = ['won', 'lost'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];
/**
 * A job completed sooner than this after its acceptance counts toward the tutor's completed jobs and rating only when
 * the tutor had marked it delivered: five jobs posted, accepted and completed in a second prove nothing.
 */
export const QUICK_COMPLETION_MS = 60 * 60 * 1000;
/** The platform's default commission on released cents: 1,500 basis points, 15 %. */
export const DEFAULT_COMMISSION_BASIS_POINTS = 1_500;
/** Days after the tutor marked a job delivered when its held money is released by default. */
export const DEFAULT_RELEASE_AFTER_DAYS = 7;

// Moderation: report reasons keep a stable stored value and the label SPEC §2 shows.
export const REPORT_REASONS = [
  { value: 'inappropriate_content', label: 'Inappropriate content' },
  { value: 'harassment', label: 'Harassment' },
  { value: 'spam', label: 'Spam' },
  { value: 'scam', label: 'Scam' },
  { value: 'other', label: 'Other' },
] as const;
export type ReportReason = (typeof REPORT_REASONS)[number]['value'];
export const REPORT_REASON_VALUES = REPORT_REASONS.map((reason) => reason.value) as [ReportReason, ...ReportReason[]];

export const REPORT_STATUSES = ['pending', 'reviewed', 'resolved', 'dismissed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

export const FLAG_STATUSES = ['pending', 'reviewed', 'resolved', 'dismissed'] as const;
export type FlagStatus = (typeof FLAG_STATUSES)[number];

/** Why a chat message was blocked; also the illegal-content flag type. */
export const MODERATION_CATEGORIES = [
  'phone',
  'email',
  'link',
  'offensive',
  'hate_speech',
  'harassment',
  'other',
] as const;
export type ModerationCategory = (typeof MODERATION_CATEGORIES)[number];

// Admin: the fixed admin's role name; sub-admins have any other name plus permissions, one per admin page. Sub-admins
// themselves and the audit log are the super-admin's alone.
export const SUPER_ADMIN_ROLE = 'super_admin';
export const SUB_ADMIN_ROLE = 'sub_admin';
export const ADMIN_PERMISSIONS = [
  'dashboard',
  'reports',
  'content',
  'meetings',
  'users',
  'patterns',
  'messages',
  'payments',
] as const;
export type AdminPermission = (typeof ADMIN_PERMISSIONS)[number];
/** What an admin decides about a pending report or flag. */
export const REPORT_DECISIONS = ['resolved', 'dismissed'] as const;
export const FLAG_DECISIONS = ['reviewed', 'dismissed'] as const;

/**
 * Per-user ceilings on what a user creates, on top of the per-address limits: generous for a person, a wall for a
 * script. Counted in the database, so they hold across server processes.
 */
export const USER_LIMITS = {
  chatMessages: { max: 60, windowMs: 60_000 },
  uploads: { max: 30, windowMs: 10 * 60_000 },
  requests: { max: 20, windowMs: 60 * 60_000 },
  bids: { max: 60, windowMs: 60 * 60_000 },
  reports: { max: 10, windowMs: 60 * 60_000 },
  aiQuestions: { max: 20, windowMs: 60_000 },
  // Enough for a person looking someone up, far too few to walk the 900 VH numbers.
  vhSearches: { max: 30, windowMs: 60_000 },
  // Edits that others are told of or that moderation reads: each attempt counts, refused ones too, so a script
  // cannot mail a student over and over or make a flag a millisecond.
  profileEdits: {
    max: 20,
    windowMs: 60 * 60_000,
    message: 'You have changed your profile many times in a short while. Please wait a few minutes and try again.',
  },
  reviewEdits: {
    max: 10,
    windowMs: 60 * 60_000,
    message: 'You have changed your reviews many times in a short while. Please wait a few minutes and try again.',
  },
  deliveryMarks: {
    max: 10,
    windowMs: 60 * 60_000,
    message: 'You have marked jobs as delivered many times in a short while. Please wait a few minutes and try again.',
  },
} as const;
export type UserLimitName = keyof typeof USER_LIMITS;

/**
 * Meetings one chat may get in a day (counted when one is made: each sends an invitation and plans two reminders).
 */
export const MEETINGS_PER_CHAT = {
  max: 10,
  windowMs: 24 * 60 * 60_000,
  message: 'At most 10 meetings can be scheduled in one chat a day. Please schedule the next one tomorrow.',
} as const;

/**
 * Upload requests one user (signed out: one address) may have in flight at once on one server process; each waits
 * on disk while it arrives, so this bounds the disk and the work one person can tie up.
 */
export const UPLOADS_IN_FLIGHT = {
  max: 3,
  message: 'You are already sending 3 files. Wait for one to finish, then try again.',
} as const;

/** What one user may keep in chat uploads and request attachments together. */
export const STORAGE_QUOTA = {
  bytes: 1024 * MIB,
  message: 'Your storage space (1 GB) is full. Files you send from now on cannot be stored.',
} as const;
/** A chat upload that no message uses after this long is deleted. */
export const ORPHAN_UPLOAD_MAX_AGE_MS = 60 * 60 * 1000;

/** A UUID in its canonical text form (what the database's uuid type accepts): cursors carry one. */
export const UUID_PATTERN = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
