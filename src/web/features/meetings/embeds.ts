// The meetings feature's screens that other features embed: the chat shows a meeting's card in its message and
// offers teachers the Schedule meeting dialog.
export { MeetingCard } from './components/meeting-card.tsx';
export { ScheduleMeetingDialog } from './components/schedule-meeting-dialog.tsx';
