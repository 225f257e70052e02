import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitReleasedCents } from './commission.ts';

describe('commission on released cents', () => {
  it.each([
    // 15 % by default.
    [10_000, undefined, 1_500],
    // 15 % of 10 cents is 1.5: half a cent rounds up.
    [10, undefined, 2],
    // 15 % of 3 cents is 0.45: rounds down.
    [3, undefined, 0],
    // 15 % of 1,003 cents is 150.45.
    [1_003, undefined, 150],
    // 12.5 % of 1,004 cents is 125.5.
    [1_004, 1_250, 126],
    [0, undefined, 0],
    [999, 0, 0],
    [999, 10_000, 999],
  ])('%d cents at %s basis points: %d cents of commission', (releasedCents, commissionBasisPoints, commission) => {
    expect(splitReleasedCents({ releasedCents, commissionBasisPoints })).toEqual({
      commissionCents: commission,
      tutorCents: releasedCents - commission,
    });
  });

  it('splits every amount into two whole, non-negative parts that add up to it, the commission rounded half up', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100_000_000_00 }),
        fc.integer({ min: 0, max: 10_000 }),
        (releasedCents, commissionBasisPoints) => {
          const { commissionCents, tutorCents } = splitReleasedCents({ releasedCents, commissionBasisPoints });
          expect(Number.isSafeInteger(commissionCents) && Number.isSafeInteger(tutorCents)).toBe(true);
          expect(commissionCents + tutorCents).toBe(releasedCents);
          expect(tutorCents).toBeGreaterThanOrEqual(0);
          // Exact in BigInt: commission = floor((cents × bp + 5,000) / 10,000).
          const exact = (BigInt(releasedCents) * BigInt(commissionBasisPoints) + 5_000n) / 10_000n;
          expect(BigInt(commissionCents)).toBe(exact);
        },
      ),
    );
  });

  it('refuses fractions of a cent, negative amounts and commissions outside 0 to 100 %', () => {
    expect(() => splitReleasedCents({ releasedCents: 10.5 })).toThrow(RangeError);
    expect(() => splitReleasedCents({ releasedCents: -1 })).toThrow(RangeError);
    expect(() => splitReleasedCents({ releasedCents: 100, commissionBasisPoints: 10_001 })).toThrow(RangeError);
    expect(() => splitReleasedCents({ releasedCents: 100, commissionBasisPoints: 15.5 })).toThrow(RangeError);
  });
});
