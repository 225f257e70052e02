import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { ErasedName } from '#shared/rules/erased-name.ts';

// Finding the texts other people keep that name an erased person (decision 0062); withoutName rewrites each.

export type { ErasedName };

/** The username as a whole word, in PostgreSQL's regular expressions (usernames are lowercase letters and digits). */
const usernameWord = (name: ErasedName) => `\\m${name.username}\\M`;
/** The address as it is written, with the dots and pluses of its regular expression escaped. */
const address = (name: ErasedName) => name.email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether `text` may name the person (by username or address, whatever the case): the rows to rewrite. */
export const naming = (text: AnyPgColumn | SQL, name: ErasedName) =>
  sql`(${text} ~* ${usernameWord(name)} or ${text} ~* ${address(name)})`;
