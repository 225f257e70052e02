// The chat feature's public entry: other features and the chat routes call these, by concern in their own modules.
export { findOrCreateRoom, getRoom, getRoomSummary, listRooms, openRoom, partnerOf } from './rooms.ts';
export {
  clearAssistantChat,
  getMeetingMessage,
  getMessageFile,
  insertMessage,
  listAssistantMessages,
  listMessages,
  sendMessage,
  storeAssistantReply,
  type Assistant,
  type SendDependencies,
} from './messages.ts';
export { publishMessage } from './delivery.ts';
export { markRoom } from './receipts.ts';

export { eraseChatFilesOf } from './erasure.ts';
