import { describe, expect, it } from 'vitest';
import { invitationWaitingText } from './profile.js';

describe('invitationWaitingText', () => {
  it('names the account, or the accounts, the invitations are to', () => {
    expect(invitationWaitingText(['Harbor Dental'])).toBe('Verify your e-mail: your invitation to Harbor Dental is waiting');
    expect(invitationWaitingText(['Harbor Dental', 'Bay Books'])).toBe(
      'Verify your e-mail: your invitation to Harbor Dental and Bay Books is waiting',
    );
    expect(invitationWaitingText(['A', 'B', 'C'])).toBe('Verify your e-mail: your invitation to A, B and C is waiting');
  });
});
