import { z } from 'zod';

// The notification bell (SPEC.md §2 "Notifications"): the latest 20 of the user's notifications of every kind.

const common = {
  id: z.uuid(),
  /** What the popover shows, one line. */
  message: z.string(),
  /** Where a click goes: /teacher/jobs?highlight={requestId}, /student/offers/{requestId}, or the stored link. */
  link: z.string().nullable(),
  read: z.boolean(),
  createdAt: z.iso.datetime({ offset: true }),
};

const notificationSchema = z.discriminatedUnion('kind', [
  /** A new request in one of a teacher's subjects. */
  z.object({
    ...common,
    kind: z.literal('job'),
    requestId: z.uuid(),
    subjectTitle: z.string(),
    /** Display text such as "$8 - $15" or "$5+", as it was when the request was posted. */
    budget: z.string(),
    /** The first 100 characters of the description, plus "…" when longer. */
    description: z.string(),
  }),
  /** A bid on one of a student's requests; tutor details as they were when the bid was placed. */
  z.object({
    ...common,
    kind: z.literal('offer'),
    requestId: z.uuid(),
    tutorId: z.uuid().nullable(),
    tutorName: z.string(),
    tutorAvatar: z.string().nullable(),
    tutorVhNumber: z.number().int().nullable(),
    bidAmountCents: z.int(),
    bidMessage: z.string().nullable(),
  }),
  /** Anything else, e.g. "your offer was accepted". */
  z.object({ ...common, kind: z.literal('general'), requestId: z.null() }),
]);

export const notificationListSchema = z.object({
  notifications: z.array(notificationSchema),
  /** Exact; the bell shows "99+" above NOTIFICATION_BADGE_MAX. */
  unreadCount: z.number().int(),
});

export type AppNotification = z.infer<typeof notificationSchema>;
export type NotificationList = z.infer<typeof notificationListSchema>;
