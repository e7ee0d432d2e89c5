import { normaliseContactMobile } from '@parley/shared';

/*
 * The numbers the simulator sells: ranges the numbering authorities keep for fiction, so a simulated
 * number never belongs to somebody, and each one a number libphonenumber (max metadata) calls valid, so
 * every check the product makes on a real number passes. The order is fixed: the same deployment state
 * offers the same numbers.
 */

/** Real area codes; 555-0100 to 555-0199 is reserved for fiction in every one of them (NANPA). */
const usAreaCodes = ['201', '202', '206', '212', '213', '303', '305', '312', '404', '415', '503', '512', '602', '615', '617', '702', '713', '718', '801', '919'];
const caAreaCodes = ['416', '604', '514', '403', '613', '780', '204', '902'];

/** Ofcom's numbers for drama (the first hundred of each block of a thousand). */
const gbDramaBlocks = ['+44207946', '+44113496', '+44114496', '+44115496', '+44116496', '+44117496', '+44118496', '+44121496', '+44131496', '+44141496', '+44151496', '+44161496', '+44289018', '+44292018'];

/** The mobile numbers ACMA lists for use in fiction. */
const auFictionalMobiles = [
  '0491570006', '0491570156', '0491570157', '0491570158', '0491570159', '0491570110', '0491570313', '0491570737',
  '0491571266', '0491571491', '0491571804', '0491572549', '0491572665', '0491572983', '0491573770', '0491573087',
  '0491574118', '0491574632', '0491575254', '0491575789', '0491576398', '0491576801', '0491577426', '0491577644',
  '0491578957', '0491578148', '0491578888', '0491579212', '0491579760', '0491579455',
];

const twoDigits = (n: number): string => String(n).padStart(2, '0');

function candidates(country: string): string[] {
  switch (country) {
    case 'US':
    case 'CA': {
      const codes = country === 'US' ? usAreaCodes : caAreaCodes;
      const out: string[] = [];
      // Across area codes first, so the first numbers offered differ in more than their last digits.
      for (let n = 0; n < 100; n++) for (const code of codes) out.push(`+1${code}55501${twoDigits(n)}`);
      return out;
    }
    case 'GB': {
      const out: string[] = [];
      for (let n = 0; n < 100; n++) for (const block of gbDramaBlocks) out.push(`${block}00${twoDigits(n)}`);
      return out;
    }
    case 'AU':
      return [...auFictionalMobiles];
    default:
      return [];
  }
}

const byCountry = new Map<string, readonly string[]>();

/** The simulator's numbers for a country (ISO 3166 alpha-2), E.164, valid, in their fixed order. */
export function simulatorInventory(country: string): readonly string[] {
  const code = country.trim().toUpperCase();
  let numbers = byCountry.get(code);
  if (!numbers) {
    const valid: string[] = [];
    for (const candidate of candidates(code)) {
      const parsed = normaliseContactMobile(candidate, code, null);
      if (parsed.valid && parsed.country === code) valid.push(parsed.number);
    }
    numbers = valid;
    byCountry.set(code, numbers);
  }
  return numbers;
}

/** The countries the simulator has numbers for. */
export const simulatorInventoryCountries: readonly string[] = ['US', 'CA', 'GB', 'AU'];

/** The country of a number of the inventory, or null when the simulator does not sell it. */
export function inventoryCountryOf(number: string): string | null {
  for (const country of simulatorInventoryCountries) {
    if (simulatorInventory(country).includes(number)) return country;
  }
  return null;
}
