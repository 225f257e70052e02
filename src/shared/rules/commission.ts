import { DEFAULT_COMMISSION_BASIS_POINTS } from '../constants.ts';

const BASIS_POINTS_IN_WHOLE = 10_000;

/**
 * A share of an amount in basis points (1,500 is 15 %), rounded half up to a whole cent. Integer arithmetic only,
 * so no cent is ever lost or made.
 */
export function shareOfCents({ cents, basisPoints }: { cents: number; basisPoints: number }) {
  if (!Number.isSafeInteger(cents) || cents < 0) {
    throw new RangeError(`an amount must be a whole number of cents, not ${cents}`);
  }
  if (!Number.isInteger(basisPoints) || basisPoints < 0 || basisPoints > BASIS_POINTS_IN_WHOLE) {
    throw new RangeError(`a share must be 0 to 10,000 basis points, not ${basisPoints}`);
  }
  // Half a cent's worth of basis points is added before the remainder is dropped: round half up.
  const scaled = cents * basisPoints + BASIS_POINTS_IN_WHOLE / 2;
  if (!Number.isSafeInteger(scaled)) throw new RangeError(`${cents} cents is too large to share exactly`);
  return (scaled - (scaled % BASIS_POINTS_IN_WHOLE)) / BASIS_POINTS_IN_WHOLE;
}

/** How released cents are split: the platform's commission is its share of them, and the tutor gets the rest. */
export function splitReleasedCents({
  releasedCents,
  commissionBasisPoints = DEFAULT_COMMISSION_BASIS_POINTS,
}: {
  releasedCents: number;
  commissionBasisPoints?: number;
}) {
  const commissionCents = shareOfCents({ cents: releasedCents, basisPoints: commissionBasisPoints });
  return { commissionCents, tutorCents: releasedCents - commissionCents };
}
