import { and, eq, isNotNull, isNull, or } from 'drizzle-orm';
import { AI_USER_ID } from '#shared/constants.ts';
import { REMOVED_FILE_TYPE } from '#shared/schemas/chat.ts';
import type { Executor } from '../../db/client.ts';
import { messages } from '../../db/schema/chat.ts';

/**
 * An erased user's side of their conversations: the messages they sent stay in their partners' conversations (shown
 * from "Deleted user"), but the files they sent are gone (their partner sees "File removed"), and their own Guru AI
 * conversation is deleted. The files themselves are removed from storage with the rest of the user's files.
 */
export async function eraseChatFilesOf({ db, userId }: { db: Executor; userId: string }) {
  await db
    .update(messages)
    .set({ fileUrl: null, fileType: REMOVED_FILE_TYPE, originalFilename: null, fileSize: null })
    .where(and(eq(messages.senderId, userId), isNotNull(messages.fileUrl)));
  await db
    .delete(messages)
    .where(
      and(
        isNull(messages.roomId),
        or(
          and(eq(messages.senderId, userId), eq(messages.receiverId, AI_USER_ID)),
          and(eq(messages.senderId, AI_USER_ID), eq(messages.receiverId, userId)),
        ),
      ),
    );
}
