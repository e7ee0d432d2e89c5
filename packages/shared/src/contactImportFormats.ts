/**
 * The column names people's contact files carry: the usual aliases and the headers of the exports
 * people bring (Google Contacts old and new, Outlook, Apple/iCloud vCard conversions, HubSpot, Mailchimp,
 * Parley's own download). Keys are compared as `headerKey` makes them: lower case, letters and digits only.
 */

/** The contact fields a column can feed; anything else is a custom attribute. */
export const importFields = ['mobile', 'firstName', 'lastName', 'email', 'country', 'tags', 'listId', 'listOptIn'] as const;
export type ImportField = (typeof importFields)[number];

export const isImportField = (name: string): name is ImportField => (importFields as readonly string[]).includes(name);

/** Lower case, accents dropped, letters and digits only: 'E-mail Address' and 'emailaddress' compare equal. */
export const headerKey = (header: string): string =>
  header
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

/**
 * A header with spaces becomes camel case. Words are split at anything but letters and digits;
 * a word in capitals (MMERGE5, FIRST) is taken as one word; a word already in camel case stays as it is.
 */
export function camelCaseHeader(header: string): string {
  const words = header
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== '');
  return words
    .map((word, i) => {
      const w = word === word.toUpperCase() ? word.toLowerCase() : word;
      return i === 0 ? w.charAt(0).toLowerCase() + w.slice(1) : w.charAt(0).toUpperCase() + w.slice(1);
    })
    .join('');
}

/** Where a known column goes: a field (lower rank wins when several columns could feed it), or nowhere. */
export type KnownColumn = { field: ImportField; rank: number } | { ignore: true };

/** The export a file most likely came from, by the columns only that export writes. */
export const importFormats = ['google', 'outlook', 'apple', 'hubspot', 'mailchimp', 'parley'] as const;
export type ImportFormat = (typeof importFormats)[number];

export const importFormatLabels: Record<ImportFormat, string> = {
  google: 'Google Contacts',
  outlook: 'Outlook',
  apple: 'Apple Contacts (iCloud)',
  hubspot: 'HubSpot',
  mailchimp: 'Mailchimp',
  parley: 'Parley contacts download',
};

const field = (f: ImportField, rank: number, headers: readonly string[]): [string, KnownColumn][] =>
  headers.map((h) => [headerKey(h), { field: f, rank }]);
const ignored = (headers: readonly string[]): [string, KnownColumn][] => headers.map((h) => [headerKey(h), { ignore: true }]);

/** Numbered columns of the Google export (Phone 1 - Value ... Phone 9 - Value). */
const numbered = (pattern: (n: number) => string, from = 1, to = 9): string[] =>
  Array.from({ length: to - from + 1 }, (_, i) => pattern(from + i));

/**
 * Rank 0: says mobile (or the field) outright; 1: a format's first or primary value; 2: the generic word
 * (phone, mail). Ties go to the leftmost column.
 */
const entries: [string, KnownColumn][] = [
  // The aliases and the usual spellings
  ...field('mobile', 0, ['mobile', 'mobile number', 'mobile phone', 'mobile phone number', 'mobile no', 'cell', 'cell phone', 'cell number', 'cellphone number', 'cellular', 'cellular phone', 'msisdn', 'sms number', 'whatsapp']),
  ...field('mobile', 2, ['phone', 'phone number', 'phonenumber', 'phone no', 'telephone', 'telephone number', 'tel', 'number', 'contact number']),
  ...field('firstName', 0, ['firstName', 'first', 'first name', 'given', 'given name', 'fname', 'forename', 'prenom']),
  ...field('lastName', 0, ['lastName', 'last', 'last name', 'surname', 'family name', 'lname', 'nom']),
  ...field('email', 0, ['email', 'emailaddress', 'e-mail', 'mail', 'email addr']),
  ...field('country', 0, ['country', 'countrycode', 'country code', 'country iso', 'iso country']),
  ...field('tags', 0, ['tags', 'tag']),
  // A full name is better in firstName than lost, but only when the file has no first-name column.
  ...field('firstName', 5, ['name', 'full name', 'display name', 'contact name']),
  ...field('listId', 0, ['listId', 'list', 'list id', 'list name']),
  ...field('listOptIn', 0, ['listOptIn', 'list opt in', 'opt in', 'opted in', 'optin']),

  // Google Contacts: the current export ("First Name", "Phone 1 - Label/Value", "Labels") and the older
  // one ("Given Name", "Family Name", "Phone 1 - Type/Value", "Group Membership").
  ...field('mobile', 1, ['Phone 1 - Value']),
  ...field('email', 1, ['E-mail 1 - Value']),
  ...field('tags', 1, ['Labels', 'Group Membership']),
  ...ignored([
    'Additional Name', 'Middle Name', 'Yomi Name', 'Given Name Yomi', 'Additional Name Yomi', 'Family Name Yomi',
    'Phonetic First Name', 'Phonetic Middle Name', 'Phonetic Last Name', 'Name Prefix', 'Name Suffix', 'Initials',
    'Short Name', 'Maiden Name', 'File As', 'Photo', 'Billing Information', 'Directory Server', 'Mileage', 'Sensitivity',
    'Priority', 'Subject',
    ...numbered((n) => `Phone ${n} - Type`), ...numbered((n) => `Phone ${n} - Label`), ...numbered((n) => `Phone ${n} - Value`, 2),
    ...numbered((n) => `E-mail ${n} - Type`), ...numbered((n) => `E-mail ${n} - Label`), ...numbered((n) => `E-mail ${n} - Value`, 2),
    ...numbered((n) => `Address ${n} - Type`), ...numbered((n) => `Address ${n} - Label`),
    ...numbered((n) => `Address ${n} - Formatted`), ...numbered((n) => `Address ${n} - PO Box`),
    ...numbered((n) => `Address ${n} - Extended Address`), ...numbered((n) => `Address ${n} - Street`, 2),
    ...numbered((n) => `Address ${n} - City`, 2), ...numbered((n) => `Address ${n} - Region`, 2),
    ...numbered((n) => `Address ${n} - Postal Code`, 2), ...numbered((n) => `Address ${n} - Country`, 2),
    ...numbered((n) => `Organization ${n} - Type`), ...numbered((n) => `Organization ${n} - Label`),
    ...numbered((n) => `Organization ${n} - Yomi Name`), ...numbered((n) => `Organization ${n} - Symbol`),
    ...numbered((n) => `Organization ${n} - Location`), ...numbered((n) => `Organization ${n} - Job Description`),
    ...numbered((n) => `Website ${n} - Type`), ...numbered((n) => `Website ${n} - Label`),
    ...numbered((n) => `Relation ${n} - Type`), ...numbered((n) => `Relation ${n} - Label`),
    ...numbered((n) => `Event ${n} - Type`), ...numbered((n) => `Event ${n} - Label`),
    ...numbered((n) => `IM ${n} - Type`), ...numbered((n) => `IM ${n} - Label`), ...numbered((n) => `IM ${n} - Service`),
    ...numbered((n) => `Custom Field ${n} - Type`), ...numbered((n) => `Custom Field ${n} - Label`),
    ...numbered((n) => `External ID ${n} - Type`), ...numbered((n) => `External ID ${n} - Label`),
  ]),

  // Outlook (desktop and Outlook.com): "Mobile Phone" is the one to text; the other numbers are not.
  ...field('email', 1, ['E-mail Address']),
  ...field('tags', 1, ['Categories']),
  ...ignored([
    'Given Yomi', 'Surname Yomi', 'Company Yomi', 'E-mail 2 Address', 'E-mail 3 Address',
    'E-mail Type', 'E-mail Display Name', 'E-mail 2 Type', 'E-mail 2 Display Name', 'E-mail 3 Type', 'E-mail 3 Display Name',
    'Home Phone', 'Home Phone 2', 'Business Phone', 'Business Phone 2', 'Car Phone', 'Other Phone', 'Primary Phone',
    'Pager', 'Business Fax', 'Home Fax', 'Other Fax', 'Company Main Phone', 'Callback', 'Radio Phone', 'Telex',
    'TTY/TDD Phone', 'ISDN', 'Assistant\'s Phone', 'Assistant\'s Name', 'Manager\'s Name', 'IMAddress',
    'Other Street', 'Other Street 2', 'Other Street 3', 'Other City', 'Other State', 'Other Postal Code',
    'Other Country/Region', 'Other PO Box', 'Home Street 2', 'Home Street 3', 'Business Street 2', 'Business Street 3',
    'Home PO Box', 'Business PO Box', 'Account', 'Government ID Number', 'Organizational ID Number',
    'Internet Free Busy', 'Keywords', 'Private', 'User 1', 'User 2', 'User 3', 'User 4',
  ]),

  // Apple Contacts has no CSV export of its own: people convert the vCard export, and converters name
  // columns after the vCard types ("Phone : mobile", "Phone (iPhone)", "Email : home").
  ...field('mobile', 0, ['Phone : mobile', 'Phone (mobile)', 'Phone - mobile', 'Mobile Phone', 'iPhone', 'Phone : iPhone', 'Phone (iPhone)', 'Phone : cell', 'Phone (cell)']),
  ...field('mobile', 1, ['Phone : main', 'Phone (main)', 'Phone : pref', 'Phone 1']),
  ...field('email', 1, ['Email : home', 'Email (home)', 'Home Email', 'Email : pref', 'Email 1', 'Email : internet']),
  ...field('email', 2, ['Email : work', 'Email (work)', 'Work Email', 'Email : other', 'Email (other)']),
  ...field('firstName', 1, ['Given name', 'First name']),
  ...field('lastName', 1, ['Family name', 'Last name']),
  ...field('tags', 2, ['Groups', 'Group']),
  ...ignored([
    'Phone : home', 'Phone (home)', 'Phone : work', 'Phone (work)', 'Phone : other', 'Phone (other)', 'Phone : fax',
    'Phone (fax)', 'Phone : home fax', 'Phone : work fax', 'Phone : pager', 'Phone 2', 'Phone 3', 'Email 2', 'Email 3',
    'Formatted name', 'Phonetic first name', 'Phonetic last name', 'Prefix', 'Photo',
    'Address : home', 'Address (home)', 'Address : work', 'Address (work)', 'UID', 'vCard version', 'Version', 'Rev',
  ]),

  // HubSpot: "Mobile Phone Number" over "Phone Number"; its own bookkeeping stays out.
  ...field('mobile', 0, ['Mobile Phone Number']),
  ...ignored([
    'Record ID', 'Contact owner', 'Associated Company', 'Associated Company IDs', 'Associated Deals', 'Lead Status',
    'Lifecycle Stage', 'Marketing contact status', 'Create Date', 'Last Activity Date', 'Last Modified Date',
    'Original Source', 'Original Source Drill-Down 1', 'Original Source Drill-Down 2', 'Became a Lead Date',
    'Number of Sales Activities', 'Email Domain', 'Fax Number', 'Recent Sales Email Replied Date',
  ]),

  // Mailchimp audience export: CC is the country code; TAGS is a list of quoted tags.
  ...field('email', 0, ['Email Address']),
  ...field('country', 1, ['CC']),
  ...field('tags', 0, ['TAGS']),
  ...ignored([
    'MEMBER_RATING', 'OPTIN_TIME', 'OPTIN_IP', 'CONFIRM_TIME', 'CONFIRM_IP', 'LATITUDE', 'LONGITUDE', 'GMTOFF', 'DSTOFF',
    'LAST_CHANGED', 'LEID', 'EUID', 'UNSUB_TIME', 'UNSUB_CAMPAIGN_TITLE',
    'UNSUB_CAMPAIGN_ID', 'UNSUB_REASON', 'UNSUB_REASON_OTHER', 'CLEAN_TIME', 'CLEAN_CAMPAIGN_TITLE', 'CLEAN_CAMPAIGN_ID',
  ]),

  // Parley's own download: what the system sets is not imported back.
  ...ignored(['id', 'valid', 'error', 'blocked', 'optedOut', 'created', 'updated', 'lists', 'numberType']),
];

/** Every known column by key. A key listed twice keeps its first entry (the aliases come first). */
export const knownColumns: ReadonlyMap<string, KnownColumn> = (() => {
  const map = new Map<string, KnownColumn>();
  for (const [key, entry] of entries) if (!map.has(key)) map.set(key, entry);
  return map;
})();

/** Columns only one export writes, to name the format in the wizard. */
const formatSignatures: Record<ImportFormat, readonly string[]> = {
  google: ['Phone 1 - Value', 'E-mail 1 - Value', 'Given Name', 'Group Membership', 'Labels', 'File As'],
  outlook: ['E-mail Address', 'Mobile Phone', 'Business Phone', 'Home Phone', 'Categories', 'Given Yomi'],
  apple: ['Phone : mobile', 'Phone (mobile)', 'Phone : iPhone', 'Email : home', 'Email (home)', 'vCard version'],
  hubspot: ['Record ID', 'Mobile Phone Number', 'Contact owner', 'Lifecycle Stage', 'Lead Status'],
  mailchimp: ['Email Address', 'MEMBER_RATING', 'OPTIN_TIME', 'LEID', 'EUID', 'CC'],
  parley: ['valid', 'optedOut', 'blocked', 'error'],
};

/** The export whose signature columns the file has most of (at least two), or null. */
export function detectImportFormat(columns: readonly string[]): ImportFormat | null {
  const keys = new Set(columns.map(headerKey));
  let best: ImportFormat | null = null;
  let bestHits = 1;
  for (const format of importFormats) {
    const hits = formatSignatures[format].filter((c) => keys.has(headerKey(c))).length;
    if (hits > bestHits) {
      best = format;
      bestHits = hits;
    }
  }
  return best;
}
