import type { Contact } from '@parley/shared';
import { describe, expect, it } from 'vitest';
import { builtInSampleContact, sampleCaption, sampleRecipient } from './sampleContact';

describe('the sample contact of the template editor', () => {
  it("is the account's first contact when it has one", () => {
    const ann: Contact = { ...builtInSampleContact('US'), firstName: 'Ann', lastName: 'Lee', mobile: { number: '+14155552671', country: 'US' } };
    const sample = sampleRecipient(ann, 'GB');
    expect(sample).toEqual({ contact: ann, source: 'firstContact' });
    expect(sampleCaption(sample, 'US')).toBe("Counts and price are for the account's first contact, Ann Lee ((415) 555-2671), with the tokens filled in.");
    expect(sampleCaption(sample, 'GB')).toBe("Counts and price are for the account's first contact, Ann Lee (+1 415 555 2671), with the tokens filled in.");
  });

  it("is Alex, in the account's country, when there is none, and says so", () => {
    const sample = sampleRecipient(null, 'GB');
    expect(sample.source).toBe('builtIn');
    expect(sample.contact).toMatchObject({ firstName: 'Alex', lastName: 'Taylor', mobile: { number: '+447700900123', country: 'GB' }, attributes: {} });
    // Ofcom's drama numbers are not valid numbers: shown as they are.
    expect(sampleCaption(sample, 'GB')).toBe(
      'The account has no contacts yet: counts and price are for a sample contact, Alex Taylor (+447700900123), with no attributes.',
    );
    expect(sampleRecipient(null, 'NZ').contact.mobile).toEqual({ number: '+12015550123', country: 'NZ' });
  });
});
