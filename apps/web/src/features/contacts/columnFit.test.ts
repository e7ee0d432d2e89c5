import { describe, expect, it } from 'vitest';
import { fitColumnVisibility } from './columnFit';

const fixed = [
  { field: '__check__', width: 50 },
  { field: 'firstName', width: 90 },
  { field: 'mobile', width: 130 },
  { field: 'actions', width: 56 },
];
const priority = [
  { field: 'lastName', width: 90 },
  { field: 'valid', width: 64 },
  { field: 'email', width: 150 },
  { field: 'created', width: 100 },
];

describe('fitColumnVisibility', () => {
  it('shows every optional column when there is room', () => {
    expect(fitColumnVisibility(1000, fixed, priority)).toEqual({ lastName: true, valid: true, email: true, created: true });
  });

  it('shows none on a phone: the fixed columns take the width', () => {
    expect(fitColumnVisibility(343, fixed, priority)).toEqual({ lastName: false, valid: false, email: false, created: false });
  });

  it('takes them in priority order until one does not fit, and leaves the rest out', () => {
    // 334 fixed and 8 for the grid, 90 + 64 taken: 496. Email (150) does not fit in 620; created (100) would, but comes after.
    expect(fitColumnVisibility(620, fixed, priority)).toEqual({ lastName: true, valid: true, email: false, created: false });
  });
});
