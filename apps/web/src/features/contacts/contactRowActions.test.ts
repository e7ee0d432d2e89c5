import { describe, expect, it } from 'vitest';
import { contactRowActions, type ContactPermissions } from './contactRowActions';

const everything: ContactPermissions = { canWrite: true, canBlock: true, canSendMessages: true };
// Never blocked nor opted out: the API leaves both dates out.
const reachable = { valid: true };

describe('the actions of a contact row', () => {
  it('are Edit, Send Message, Block and Remove for a role that may do all of them', () => {
    expect(contactRowActions(everything, reachable)).toEqual([
      { id: 'edit', label: 'Edit', disabled: false },
      { id: 'sendMessage', label: 'Send Message', disabled: false },
      { id: 'block', label: 'Block', disabled: false },
      { id: 'remove', label: 'Remove', disabled: false },
    ]);
  });

  it('are none for Read Only', () => {
    expect(contactRowActions({ canWrite: false, canBlock: false, canSendMessages: false }, reachable)).toEqual([]);
  });

  it('leave out what the role may not do', () => {
    expect(contactRowActions({ canWrite: true, canBlock: false, canSendMessages: false }, reachable).map((a) => a.id)).toEqual(['edit', 'remove']);
  });

  it('show a blocked contact as Blocked, not to be blocked again, and not to be texted', () => {
    const actions = contactRowActions(everything, { ...reachable, blocked: '2026-01-02T03:04:05.000Z' });
    expect(actions.find((a) => a.id === 'block')).toEqual({ id: 'block', label: 'Blocked', disabled: true, hint: 'Until they text START' });
    expect(actions.find((a) => a.id === 'sendMessage')).toEqual({ id: 'sendMessage', label: 'Send Message', disabled: true, hint: 'Blocked' });
  });

  it('say why a contact cannot be texted', () => {
    expect(contactRowActions(everything, { ...reachable, valid: false }).find((a) => a.id === 'sendMessage')?.hint).toBe('Invalid');
    expect(contactRowActions(everything, { ...reachable, optedOut: '2026-01-02T03:04:05.000Z' }).find((a) => a.id === 'sendMessage')?.hint).toBe(
      'Opted out',
    );
  });

  it('offer Call after Send Message when the user may call, disabled with the reason when they cannot', () => {
    expect(contactRowActions(everything, reachable, { disabledReason: null }).map((a) => a.id)).toEqual(['edit', 'sendMessage', 'call', 'block', 'remove']);
    expect(contactRowActions(everything, reachable, { disabledReason: 'No mobile' }).find((a) => a.id === 'call')).toEqual({
      id: 'call',
      label: 'Call',
      disabled: true,
      hint: 'No mobile',
    });
    expect(contactRowActions(everything, { valid: false }, { disabledReason: null }).find((a) => a.id === 'call')?.hint).toBe('Invalid');
  });
});
