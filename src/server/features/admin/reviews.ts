import type { Database } from '../../db/client.ts';
import type { SessionUser } from '../../http/session.ts';
import { hideReview, markReviewLookedAt } from '../tutors/service.ts';
import { recordAdminAction } from './audit.ts';

/** Hides a reported (or any) review: it leaves the tutor's page and average; the audit row is in the same transaction. */
export async function hideReviewAsAdmin({
  db,
  actor,
  reviewId,
  note,
}: {
  db: Database;
  actor: SessionUser;
  reviewId: string;
  note: string;
}) {
  return db.transaction(async (tx) => {
    const { before, after } = await hideReview({ db: tx, reviewId });
    await recordAdminAction(tx, {
      actor,
      action: 'review.hide',
      objectType: 'review',
      objectId: reviewId,
      before,
      after: { hidden: true, note },
    });
    return after;
  });
}

/** An admin has looked at a review listed for them: it leaves the list; the audit row is in the same transaction. */
export async function lookAtReviewAsAdmin({
  db,
  actor,
  reviewId,
}: {
  db: Database;
  actor: SessionUser;
  reviewId: string;
}) {
  return db.transaction(async (tx) => {
    const { before, after } = await markReviewLookedAt({ db: tx, reviewId });
    await recordAdminAction(tx, {
      actor,
      action: 'review.looked_at',
      objectType: 'review',
      objectId: reviewId,
      before,
      after: { lookedAt: after.lookedAt },
    });
    return after;
  });
}
