import { sql } from 'drizzle-orm';
import type { ContactMessageInput } from '#shared/schemas/contact.ts';
import type { Executor } from '../../db/client.ts';
import { contactMessages } from '../../db/schema/pages.ts';

/** Keeps the message for the admin panel. */
export async function createContactMessage({ db, input }: { db: Executor; input: ContactMessageInput }) {
  const [row] = await db.insert(contactMessages).values(input).returning({ id: contactMessages.id });
  return row!;
}

/** An erased account's messages to the team go with it: the form keeps only what the sender typed, their address. */
export async function eraseContactMessagesFrom({ db, email }: { db: Executor; email: string }) {
  await db.delete(contactMessages).where(sql`lower(${contactMessages.email}) = lower(${email})`);
}
