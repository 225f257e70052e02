import { describe, expect, it } from 'vitest';
import { bestMatchScore } from './best-match.ts';

describe('best match', () => {
  const none = { reviewCount: 0, reviewRatingSum: 0, jobsCompleted: 0, responseMinutes: null };

  it('starts a tutor without reviews at the prior rating, with no points for jobs or response', () => {
    expect(bestMatchScore(none)).toBe(400);
  });

  it('lets many good reviews outweigh one perfect review', () => {
    const onePerfect = bestMatchScore({ ...none, reviewCount: 1, reviewRatingSum: 5 });
    const fiftyGood = bestMatchScore({ ...none, reviewCount: 50, reviewRatingSum: 245 });
    expect(onePerfect).toBe(416);
    expect(fiftyGood).toBeGreaterThan(onePerfect);
  });

  it('counts completed jobs up to the cap and faster responses for more', () => {
    expect(bestMatchScore({ ...none, jobsCompleted: 10 })).toBe(420);
    expect(bestMatchScore({ ...none, jobsCompleted: 500 })).toBe(600);
    expect(bestMatchScore({ ...none, responseMinutes: 60 })).toBe(500);
    expect(bestMatchScore({ ...none, responseMinutes: 61 })).toBe(460);
    expect(bestMatchScore({ ...none, responseMinutes: 1440 })).toBe(430);
    expect(bestMatchScore({ ...none, responseMinutes: 1441 })).toBe(400);
  });
});
