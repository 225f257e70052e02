// The meetings feature's public entry: the reminders job and the admin's meeting statistics.
export { mailAddressOf, meetingRemindersJob } from './meetings.ts';
export { getMeetingStats } from './stats.ts';
