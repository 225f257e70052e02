import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCents, formatDollars, formatLedgerCents, MAX_AMOUNT_CENTS, parseCents } from './money.ts';

describe('typed dollar amounts', () => {
  it.each([
    ['10', 1000],
    ['10.5', 1050],
    ['10.50', 1050],
    ['10.05', 1005],
    ['0.01', 1],
    ['0', 0],
    [' 12.25 ', 1225],
    ['007.10', 710],
    ['1000000', MAX_AMOUNT_CENTS],
    ['1000000.00', MAX_AMOUNT_CENTS],
    ['0000000000000000000012.50', 1250],
  ])('reads %j as %d cents', (typed, cents) => {
    expect(parseCents(typed)).toBe(cents);
  });

  it.each([
    '10.005',
    '10.001',
    '1e3',
    '1E3',
    '-5',
    '+5',
    'NaN',
    'Infinity',
    '',
    ' ',
    '.5',
    '5.',
    '1,000',
    '$5',
    '0x10',
    '5 5',
    '1000000.01',
    '99999999999999999999',
  ])('refuses %j', (typed) => {
    expect(parseCents(typed)).toBeNull();
  });

  it('reads back every amount it formats, cent for cent', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_AMOUNT_CENTS }), (cents) => {
        expect(parseCents(formatDollars(cents))).toBe(cents);
      }),
    );
  });

  it('refuses any amount with a third decimal that is not zero', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 999_999 }), fc.integer({ min: 1, max: 999 }), (dollars, fraction) => {
        fc.pre(fraction % 10 !== 0);
        expect(parseCents(`${dollars}.${String(fraction).padStart(3, '0')}`)).toBeNull();
      }),
    );
  });
});

describe('amounts shown', () => {
  it.each([
    [1250, '$12.50'],
    [800, '$8'],
    [5, '$0.05'],
    [0, '$0'],
    [999_900, '$9999'],
    [100_000_001, '$1000000.01'],
    [-1250, '-$12.50'],
  ])('shows %d cents as %s', (cents, shown) => {
    expect(formatCents(cents)).toBe(shown);
  });

  it.each([
    [1250, '$12.50'],
    [800, '$8.00'],
    [5, '$0.05'],
    [0, '$0.00'],
    [-88, '-$0.88'],
    [-100_000_001, '-$1000000.01'],
  ])('shows %d cents in a ledger as %s', (cents, shown) => {
    expect(formatLedgerCents(cents)).toBe(shown);
  });

  it('refuses a fraction of a cent rather than rounding it', () => {
    expect(() => formatDollars(10.5)).toThrow(RangeError);
    expect(() => formatLedgerCents(10.5)).toThrow(RangeError);
  });
});
