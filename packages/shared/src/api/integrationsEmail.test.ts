import { describe, expect, it } from 'vitest';
import { changedProperties } from './integrations.js';
import { emailPropertiesSchema, senderAllowed } from './integrationsEmail.js';

describe('the Email integration schemas', () => {
  it('allows a sender by its address or its domain, case aside', () => {
    const entries = ['ops@acme.test', '@quay.test'];
    expect(senderAllowed(entries, 'OPS@acme.test')).toBe(true);
    expect(senderAllowed(entries, 'anyone@quay.test')).toBe(true);
    expect(senderAllowed(entries, 'ops@sub.acme.test')).toBe(false);
    expect(senderAllowed(entries, 'eve@evil.test')).toBe(false);
    expect(senderAllowed(entries, '')).toBe(false);
  });

  it('keeps entries lower case and refuses what is neither an address nor @domain', () => {
    expect(emailPropertiesSchema.parse({ allowedSenders: [' Ops@Acme.test ', '@Quay.test'], senderNumberId: '' }).allowedSenders).toEqual(['ops@acme.test', '@quay.test']);
    expect(emailPropertiesSchema.safeParse({ allowedSenders: ['acme.test'], senderNumberId: '' }).success).toBe(false);
    expect(emailPropertiesSchema.safeParse({ allowedSenders: [], senderNumberId: 'nope' }).success).toBe(false);
  });

  it('sends a list of senders only when its entries changed', () => {
    expect(changedProperties({ allowedSenders: ['@a.test'], senderNumberId: '' }, { allowedSenders: ['@a.test'], senderNumberId: '' })).toEqual({});
    expect(changedProperties({ allowedSenders: ['@a.test'] }, { allowedSenders: ['@a.test', '@b.test'] })).toEqual({ allowedSenders: ['@a.test', '@b.test'] });
  });
});
