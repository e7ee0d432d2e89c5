import { describe, expect, it } from 'vitest';
import { approvalBody, goesAt, messagesCount } from './queries';

describe('acceptable hours approvals', () => {
  it('approves the selected messages, or every held one when none is selected', () => {
    expect(approvalBody([])).toEqual({});
    expect(approvalBody(['a', 'b'])).toEqual({ messageIds: ['a', 'b'] });
  });

  it('counts messages in words', () => {
    expect(messagesCount(1)).toBe('1 message');
    expect(messagesCount(0)).toBe('0 messages');
    expect(messagesCount(12)).toBe('12 messages');
  });

  it("says when a message goes in the viewer's time, with the recipient's own where the zones differ", () => {
    const at = '2030-01-15T13:00:00.000Z';
    expect(goesAt(at, 'America/New_York', 'America/New_York')).toBe('Jan 15, 2030, 8:00 AM');
    expect(goesAt(at, 'America/New_York', 'Europe/London')).toBe('Jan 15, 2030, 1:00 PM (8:00 AM for the recipient)');
    // A zone Intl does not know still shows the viewer's time.
    expect(goesAt(at, 'Not/AZone', 'UTC')).toBe('Jan 15, 2030, 1:00 PM');
  });
});
