import { eq } from 'drizzle-orm';
import { checkMessage, withoutExternalLinks, type PatternMatcher } from '#shared/rules/moderation.ts';
import type { ModerationDetails } from '#shared/schemas/chat.ts';
import type { Executor } from '../../db/client.ts';
import { moderationPatterns } from '../../db/schema/moderation.ts';
import { AppError } from '../../http/errors.ts';
import { toPatternMatchers } from './linear-patterns.ts';
import { recordRefusedAttempt } from './refused-attempts.ts';

export { assertUsablePattern } from './pattern-checks.ts';
export { countRefusedAttempts, listRepeatedSenders } from './refused-attempts.ts';

/**
 * How long the active patterns are reused: an admin's change applies at once on the node that made it (forgetPatterns)
 * and within this time on the others; sends skip a query.
 */
const PATTERNS_TTL_MS = 30_000;

export type Moderation = ReturnType<typeof createModeration>;

/** The shared moderation rules with this server's origin and the database's active patterns. */
export function createModeration({
  db,
  ownOrigins,
  ttlMs = PATTERNS_TTL_MS,
}: {
  db: Executor;
  ownOrigins: string[];
  ttlMs?: number;
}) {
  let cached: { patterns: Promise<PatternMatcher[]>; until: number } | undefined;

  const activePatterns = () => {
    if (!cached || cached.until < Date.now()) {
      // execute(): a drizzle query is lazy and runs again on every await; the promise runs it once.
      const patterns = db
        .select({ pattern: moderationPatterns.pattern, category: moderationPatterns.category })
        .from(moderationPatterns)
        .where(eq(moderationPatterns.isActive, true))
        .execute()
        .then(toPatternMatchers);
      cached = { patterns, until: Date.now() + ttlMs };
      // A failed load is not kept: the next message asks the database again.
      patterns.catch(() => (cached = undefined));
    }
    return cached.patterns;
  };

  return {
    /** Drops the cached patterns: the next message reads them again (an admin changed them on this node). */
    forgetPatterns() {
      cached = undefined;
    },
    /** The text with its external links replaced, for texts shown rather than refused (Guru AI's model answers). */
    withoutExternalLinks(text: string) {
      return withoutExternalLinks(text, { ownOrigins });
    },
    /** Whether the text breaks no rule; records nothing (a text it refuses goes through assertAllowed). */
    async allows(text: string) {
      return checkMessage(text, { patterns: await activePatterns(), ownOrigins }).ok;
    },
    /**
     * Throws MESSAGE_BLOCKED (400) when the text breaks a rule, after counting the refused attempt (and keeping it as
     * an illegal-content flag while the sender's hour has few);
     * `field` names the input the text came from and the offsets in `details.matches` point into it.
     */
    async assertAllowed({
      text,
      field,
      senderId,
      roomId,
    }: {
      text: string;
      field: string;
      senderId: string;
      roomId: string | null;
    }) {
      const result = checkMessage(text, { patterns: await activePatterns(), ownOrigins });
      if (result.ok) return;
      await recordRefusedAttempt(db, { senderId, roomId, text, category: result.category, message: result.message });
      const details: ModerationDetails = { category: result.category, matches: result.matches };
      throw new AppError('MESSAGE_BLOCKED', { message: result.message, fields: { [field]: result.message }, details });
    },
  };
}
