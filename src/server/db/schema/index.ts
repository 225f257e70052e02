// Every table, for drizzle-kit, the Drizzle client and better-auth's adapter (tables only:
// the column helpers in columns.ts are deliberately not re-exported).
export * from './auth.ts';
export * from './subjects.ts';
export * from './chat.ts';
export * from './meetings.ts';
export * from './requests.ts';
export * from './notifications.ts';
export * from './moderation.ts';
export * from './admin.ts';
export * from './pages.ts';
export * from './realtime.ts';
export * from './limits.ts';
export * from './reviews.ts';
export * from './payments.ts';
export * from './stripe-connect.ts';
export * from './guru.ts';
export * from './push.ts';
export * from './account.ts';
export * from './tutors.ts';
