import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { DELETED_USER_NAME } from '#shared/schemas/account-deletion.ts';

// How an erased person's name leaves the texts other people keep (decision 0062): their notices, the mails and
// pushes waiting for them or kept after sending.

/** What named the person: their username and address, and the address the erased row now has. */
export type ErasedName = { username: string; email: string; erasedEmail: string };

/** The username as a whole word, in PostgreSQL's regular expressions (usernames are lowercase letters and digits). */
const usernameWord = (name: ErasedName) => `\\m${name.username}\\M`;
/** The address as it is written, with the dots and pluses of its regular expression escaped. */
const address = (name: ErasedName) => name.email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * `text` without the person: the address reads the erased row's (still an address), then the username "Deleted
 * user" (the address first, since an address may hold the username as a word).
 */
export const withoutName = (text: AnyPgColumn | SQL, name: ErasedName) =>
  sql`regexp_replace(regexp_replace(${text}, ${address(name)}, ${name.erasedEmail}, 'gi'), ${usernameWord(name)}, ${DELETED_USER_NAME}, 'gi')`;

/** Whether `text` names the person (by username or address, whatever the case). */
export const naming = (text: AnyPgColumn | SQL, name: ErasedName) =>
  sql`(${text} ~* ${usernameWord(name)} or ${text} ~* ${address(name)})`;
