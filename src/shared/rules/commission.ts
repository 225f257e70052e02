import { DEFAULT_COMMISSION_BASIS_POINTS } from '../constants.ts';

const BASIS_POINTS_IN_WHOLE = 10_000;

/**
 * How released cents are split: the platform's commission is its share of them (basis points: 1,500 is 15 %)
 * rounded half up to a cent, and the tutor gets the rest. Integer arithmetic only, so no cent is ever lost or made.
 */
export function splitReleasedCents({
  releasedCents,
  commissionBasisPoints = DEFAULT_COMMISSION_BASIS_POINTS,
}: {
  releasedCents: number;
  commissionBasisPoints?: number;
}) {
  if (!Number.isSafeInteger(releasedCents) || releasedCents < 0) {
    throw new RangeError(`released cents must be a whole number of cents, not ${releasedCents}`);
  }
  if (
    !Number.isInteger(commissionBasisPoints) ||
    commissionBasisPoints < 0 ||
    commissionBasisPoints > BASIS_POINTS_IN_WHOLE
  ) {
    throw new RangeError(`the commission must be 0 to 10,000 basis points, not ${commissionBasisPoints}`);
  }
  // Half a cent's worth of basis points is added before the remainder is dropped: round half up.
  const scaled = releasedCents * commissionBasisPoints + BASIS_POINTS_IN_WHOLE / 2;
  if (!Number.isSafeInteger(scaled)) throw new RangeError(`${releasedCents} cents is too large to split exactly`);
  const commissionCents = (scaled - (scaled % BASIS_POINTS_IN_WHOLE)) / BASIS_POINTS_IN_WHOLE;
  return { commissionCents, tutorCents: releasedCents - commissionCents };
}
