import { AI_USER_ID } from '#shared/constants.ts';
import type { ChatMessage } from '#shared/schemas/chat.ts';
import type { Executor } from '../../db/client.ts';
import type { Realtime } from '../../platform/realtime/realtime.ts';
import { pushChatMessage } from '../notifications/service.ts';

/** After the commit: the message to both participants' sockets (Guru AI has none), and their room lists are stale. */
export function publishMessage({ realtime, message }: { realtime: Realtime; message: ChatMessage }) {
  const participants = [message.senderId, message.receiverId].filter((id) => id !== AI_USER_ID);
  realtime.toUsers(participants, 'message:new', message);
  if (message.roomId) realtime.toUsers(participants, 'room:updated', { roomId: message.roomId });
}

/**
 * A new message after its commit: published to both participants' tabs, and pushed to the receiver's devices (unless
 * a tab of theirs is shown, or they turned message pushes off).
 */
export async function deliverMessage({
  db,
  realtime,
  message,
}: {
  db: Executor;
  realtime: Realtime;
  message: ChatMessage;
}) {
  publishMessage({ realtime, message });
  if (message.receiverId === AI_USER_ID) return;
  const text = message.content || (message.attachment ? `📎 ${message.attachment.originalFilename}` : 'New message');
  await pushChatMessage(db, { senderId: message.senderId, receiverId: message.receiverId, text });
}
