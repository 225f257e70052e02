// The chat feature's public entry: other features and the chat routes call these, by concern in their own modules.
export { findOrCreateRoom, getRoom, getRoomSummary, listRooms, openRoom } from './rooms.ts';
export {
  clearAssistantChat,
  getMessageFile,
  listAssistantMessages,
  listMessages,
  publishMessage,
  sendMessage,
  storeAssistantReply,
  type Assistant,
  type SendDependencies,
} from './messages.ts';
export { markRoom } from './receipts.ts';
export { createMeeting, getMeetingMessage } from './meeting-messages.ts';
