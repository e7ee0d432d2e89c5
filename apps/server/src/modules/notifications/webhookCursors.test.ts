import { describe, expect, it } from 'vitest';
import { EndpointCursor } from './webhookCursors.js';

describe('a webhook cursor', () => {
  it('moves up to just before the oldest event read whose result is not on its way, and past events of other webhooks', () => {
    const cursor = new EndpointCursor(0);
    for (const position of [5, 7, 9]) cursor.read(position);
    // Nothing recorded yet: only the positions before its first event (other webhooks' events) are passed.
    expect(cursor.advance()).toBe(4);
    expect(cursor.advance()).toBeNull();
    // An answer out of order moves nothing while an older one is still out.
    cursor.record(7);
    expect(cursor.advance()).toBeNull();
    cursor.record(5);
    expect(cursor.advance()).toBe(8);
    cursor.record(9);
    expect(cursor.advance()).toBe(9);
    // Read to the account's last event without finding more for it.
    cursor.readTo(20);
    expect(cursor.advance()).toBe(20);
    expect(cursor.writtenPosition).toBe(20);
    expect(cursor.advance()).toBeNull();
  });

  it('never moves back, whatever it is told after', () => {
    const cursor = new EndpointCursor(30);
    cursor.readTo(25);
    expect(cursor.advance()).toBeNull();
    cursor.read(31);
    cursor.record(31);
    expect(cursor.advance()).toBe(31);
  });
});
