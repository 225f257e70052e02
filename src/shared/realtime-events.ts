import type { NotificationKind, RequestType } from '#shared/constants.ts';
import type { ChatError, ChatMessage, ReceiptStatus, SendMessageInput } from '#shared/schemas/chat.ts';

// Socket.IO events the server sends to signed-in users. Each feature adds its events here, so the
// server's emits and the client's listeners are checked against one list.

/** Sent to every socket of a user; payloads only tell the client which cached queries are stale. */
export interface ServerToClientEvents {
  /** The session behind this socket ended (sign-out, password reset): the client signs out. */
  'session:ended': () => void;
  /**
   * A notification for this user was stored: refetch the bell (list and unreadCount). `requestId` names the
   * request whose offers (kind offer) or job card (kind job) changed; null for general notifications.
   */
  'notification:new': (payload: { kind: NotificationKind; requestId: string | null }) => void;
  /** A new request in one of this teacher's subjects: toast "New Job Available!", View goes to /teacher/jobs?highlight={requestId}. */
  'job:new': (payload: { requestId: string; subjectId: string; type: RequestType }) => void;
  /** A message was stored, sent to its sender's and receiver's sockets: append it (dedupe by id or clientId). */
  'message:new': (message: ChatMessage) => void;
  /** Guru AI is working on an answer for this user (true) or has answered (false): the typing indicator. */
  'guru:typing': (payload: { isTyping: boolean }) => void;
  /** The next piece of the Guru AI reply being written (model servers stream): append it; the stored reply follows. */
  'guru:delta': (payload: { text: string }) => void;
  /** Guru AI could not answer at all: show "Error from Guru Bot - Failed to get a response from the AI". */
  'guru:error': () => void;
  /**
   * The partner received (delivered) or read this user's messages in the room: every own message there created at
   * or before `upTo` now shows one check (delivered) or two (read).
   */
  'message:status': (payload: { roomId: string; status: ReceiptStatus; upTo: string }) => void;
  /** The room's last message or unread count changed (or the room is new): refetch the room list. */
  'room:updated': (payload: { roomId: string }) => void;
}

/** The answer to `message:send`: the stored message (also when it was stored by an earlier try), or the error. */
export type SendMessageAck = { ok: true; message: ChatMessage } | ({ ok: false } & ChatError);

export interface ClientToServerEvents {
  /**
   * Sends a message, exactly as POST /api/chat/messages. The acknowledgement comes after the commit; without one
   * (timeout, reconnect) the client sends again with the same clientId until acknowledged.
   */
  'message:send': (payload: SendMessageInput, ack: (result: SendMessageAck) => void) => void;
  /** This tab is shown (true) or hidden (false): a user with a shown tab is not pushed to. Sent on every connect too. */
  'tab:visibility': (visible: boolean) => void;
}

export type ServerEventName = keyof ServerToClientEvents;
