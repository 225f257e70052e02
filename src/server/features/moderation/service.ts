import { eq } from 'drizzle-orm';
import { checkMessage, type ModerationPatternRule } from '#shared/rules/moderation.ts';
import type { ModerationDetails } from '#shared/schemas/chat.ts';
import type { Executor } from '../../db/client.ts';
import { illegalContentFlags, moderationPatterns } from '../../db/schema/moderation.ts';
import { AppError } from '../../http/errors.ts';

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
  let cached: { rules: Promise<ModerationPatternRule[]>; until: number } | undefined;

  const activePatterns = () => {
    if (!cached || cached.until < Date.now()) {
      // execute(): a drizzle query is lazy and runs again on every await; the promise runs it once.
      const rules = db
        .select({ pattern: moderationPatterns.pattern, category: moderationPatterns.category })
        .from(moderationPatterns)
        .where(eq(moderationPatterns.isActive, true))
        .execute();
      cached = { rules, until: Date.now() + ttlMs };
      // A failed load is not kept: the next message asks the database again.
      rules.catch(() => (cached = undefined));
    }
    return cached.rules;
  };

  return {
    /** Drops the cached patterns: the next message reads them again (an admin changed them on this node). */
    forgetPatterns() {
      cached = undefined;
    },
    /** Whether the text breaks no rule; records nothing (a text it refuses goes through assertAllowed). */
    async allows(text: string) {
      return checkMessage(text, { patterns: await activePatterns(), ownOrigins }).ok;
    },
    /**
     * Throws MESSAGE_BLOCKED (400) when the text breaks a rule, after recording an illegal-content flag;
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
      await db.insert(illegalContentFlags).values({
        flagType: result.category,
        content: text,
        description: result.message,
        senderId,
        chatRoomId: roomId,
      });
      const details: ModerationDetails = { category: result.category, matches: result.matches };
      throw new AppError('MESSAGE_BLOCKED', { message: result.message, fields: { [field]: result.message }, details });
    },
  };
}
