import { describe, expect, it } from 'vitest';
import {
  autoMapColumns,
  camelCaseHeader,
  checkImportMapping,
  completeImportMapping,
  countryCodeOf,
  detectImportFormat,
  headerKey,
  importColumnNames,
} from './contactImport.js';

const mapped = (headers: string[]) => {
  const mapping = autoMapColumns(importColumnNames(headers));
  return Object.fromEntries(Object.entries(mapping).filter(([, target]) => target !== null));
};

describe('header normalisation (docs/decisions.md, "Columns")', () => {
  it('turns a header with spaces into camel case', () => {
    expect(camelCaseHeader('Date Of Birth')).toBe('dateOfBirth');
    expect(camelCaseHeader('favourite colour')).toBe('favouriteColour');
    expect(camelCaseHeader('E-mail 1 - Value')).toBe('eMail1Value');
    expect(camelCaseHeader('MMERGE5')).toBe('mmerge5');
    expect(camelCaseHeader('membershipLevel')).toBe('membershipLevel');
    expect(camelCaseHeader('Prénom préféré')).toBe('prenomPrefere');
  });

  it('compares names ignoring case and punctuation', () => {
    expect(headerKey('E-mail Address')).toBe(headerKey('emailaddress'));
    expect(headerKey('Phone_Number')).toBe(headerKey('phone number'));
    expect(headerKey('FIRST-NAME')).toBe('firstname');
  });

  it('names empty and repeated headers so every column has its own name', () => {
    expect(importColumnNames(['\uFEFFPhone', '', 'phone', ' Phone '])).toEqual(['Phone', 'Column 2', 'phone (2)', 'Phone (3)']);
  });
});

describe('automatic mapping', () => {
  it('maps the aliases of each field', () => {
    expect(mapped(['cell', 'first', 'surname', 'emailaddress', 'countrycode'])).toEqual({
      cell: 'mobile',
      first: 'firstName',
      surname: 'lastName',
      emailaddress: 'email',
      countrycode: 'country',
    });
    expect(mapped(['Phone', 'Given', 'Last', 'E-Mail', 'Country Code', 'Tags', 'listId', 'listOptIn'])).toEqual({
      Phone: 'mobile',
      Given: 'firstName',
      Last: 'lastName',
      'E-Mail': 'email',
      'Country Code': 'country',
      Tags: 'tags',
      listId: 'listId',
      listOptIn: 'listOptIn',
    });
    expect(mapped(['PhoneNumber'])).toEqual({ PhoneNumber: 'mobile' });
  });

  it('makes unknown columns custom attributes named in camel case', () => {
    expect(mapped(['mobile', 'Membership Level', 'Date of Birth', '2nd Phone', 'favourite colour'])).toEqual({
      mobile: 'mobile',
      'Membership Level': 'membershipLevel',
      'Date of Birth': 'dateOfBirth',
      '2nd Phone': 'column2ndPhone',
      'favourite colour': 'favouriteColour',
    });
  });

  it('gives a field to the column that names it most plainly, leaving the others out', () => {
    expect(mapped(['Phone Number', 'Mobile Phone Number', 'Email'])).toEqual({ 'Mobile Phone Number': 'mobile', Email: 'email' });
    expect(mapped(['Name', 'Mobile'])).toEqual({ Name: 'firstName', Mobile: 'mobile' });
    expect(mapped(['Name', 'First Name', 'Mobile'])).toEqual({ 'First Name': 'firstName', Mobile: 'mobile' });
    // Two columns whose headers camel-case alike become two attributes.
    expect(mapped(['mobile', 'Shoe Size', 'shoe-size'])).toEqual({ mobile: 'mobile', 'Shoe Size': 'shoeSize', 'shoe-size': 'shoeSize2' });
  });

  it('reads a Google Contacts export (current and older headers)', () => {
    const current = [
      'First Name', 'Middle Name', 'Last Name', 'Phonetic First Name', 'Nickname', 'File As', 'Organization Name',
      'Organization Title', 'Birthday', 'Notes', 'Labels', 'E-mail 1 - Label', 'E-mail 1 - Value', 'E-mail 2 - Label',
      'E-mail 2 - Value', 'Phone 1 - Label', 'Phone 1 - Value', 'Phone 2 - Label', 'Phone 2 - Value',
      'Address 1 - Label', 'Address 1 - Formatted', 'Address 1 - City', 'Address 1 - Country',
    ];
    expect(detectImportFormat(current)).toBe('google');
    expect(mapped(current)).toEqual({
      'First Name': 'firstName',
      'Last Name': 'lastName',
      Nickname: 'nickname',
      'Organization Name': 'organizationName',
      'Organization Title': 'organizationTitle',
      Birthday: 'birthday',
      Notes: 'notes',
      Labels: 'tags',
      'E-mail 1 - Value': 'email',
      'Phone 1 - Value': 'mobile',
      'Address 1 - City': 'address1City',
      'Address 1 - Country': 'address1Country',
    });
    const older = ['Name', 'Given Name', 'Additional Name', 'Family Name', 'Group Membership', 'E-mail 1 - Type', 'E-mail 1 - Value', 'Phone 1 - Type', 'Phone 1 - Value'];
    expect(detectImportFormat(older)).toBe('google');
    expect(mapped(older)).toEqual({
      'Given Name': 'firstName',
      'Family Name': 'lastName',
      'Group Membership': 'tags',
      'E-mail 1 - Value': 'email',
      'Phone 1 - Value': 'mobile',
    });
  });

  it('reads an Outlook export: Mobile Phone, not the home or business numbers', () => {
    const outlook = [
      'First Name', 'Middle Name', 'Last Name', 'Title', 'Suffix', 'Nickname', 'Given Yomi', 'Surname Yomi',
      'E-mail Address', 'E-mail 2 Address', 'E-mail 3 Address', 'Home Phone', 'Home Phone 2', 'Business Phone',
      'Business Phone 2', 'Mobile Phone', 'Car Phone', 'Other Phone', 'Primary Phone', 'Pager', 'Business Fax',
      'Home Fax', 'Company', 'Job Title', 'Categories', 'Notes',
    ];
    expect(detectImportFormat(outlook)).toBe('outlook');
    expect(mapped(outlook)).toEqual({
      'First Name': 'firstName',
      'Last Name': 'lastName',
      Title: 'title',
      Suffix: 'suffix',
      Nickname: 'nickname',
      'E-mail Address': 'email',
      'Mobile Phone': 'mobile',
      Company: 'company',
      'Job Title': 'jobTitle',
      Categories: 'tags',
      Notes: 'notes',
    });
  });

  it('reads Apple Contacts (iCloud) vCard conversions', () => {
    const apple = ['First name', 'Last name', 'Organization', 'Phone : home', 'Phone : mobile', 'Phone : work', 'Phone : iPhone', 'Email : home', 'Email : work', 'Groups'];
    expect(detectImportFormat(apple)).toBe('apple');
    expect(mapped(apple)).toEqual({
      'First name': 'firstName',
      'Last name': 'lastName',
      Organization: 'organization',
      'Phone : mobile': 'mobile',
      'Phone : iPhone': 'mobile',
      'Email : home': 'email',
      Groups: 'tags',
    });
    expect(mapped(['Given name', 'Family name', 'Phone (iPhone)', 'Email (work)'])).toEqual({
      'Given name': 'firstName',
      'Family name': 'lastName',
      'Phone (iPhone)': 'mobile',
      'Email (work)': 'email',
    });
  });

  it('reads a HubSpot export', () => {
    const hubspot = ['Record ID', 'First Name', 'Last Name', 'Email', 'Phone Number', 'Mobile Phone Number', 'Contact owner', 'Lifecycle Stage', 'Company Name', 'Create Date'];
    expect(detectImportFormat(hubspot)).toBe('hubspot');
    expect(mapped(hubspot)).toEqual({
      'First Name': 'firstName',
      'Last Name': 'lastName',
      Email: 'email',
      'Mobile Phone Number': 'mobile',
      'Company Name': 'companyName',
    });
  });

  it('reads a Mailchimp audience export', () => {
    const mailchimp = ['Email Address', 'First Name', 'Last Name', 'Address', 'Phone Number', 'Birthday', 'MEMBER_RATING', 'OPTIN_TIME', 'OPTIN_IP', 'CONFIRM_TIME', 'LATITUDE', 'LONGITUDE', 'GMTOFF', 'DSTOFF', 'TIMEZONE', 'CC', 'REGION', 'LAST_CHANGED', 'LEID', 'EUID', 'NOTES', 'TAGS'];
    expect(detectImportFormat(mailchimp)).toBe('mailchimp');
    expect(mapped(mailchimp)).toEqual({
      'Email Address': 'email',
      'First Name': 'firstName',
      'Last Name': 'lastName',
      Address: 'address',
      'Phone Number': 'mobile',
      Birthday: 'birthday',
      TIMEZONE: 'timezone',
      CC: 'country',
      REGION: 'region',
      NOTES: 'notes',
      TAGS: 'tags',
    });
  });

  it("reads Parley's own download back, leaving out what the system sets", () => {
    const parley = ['firstName', 'lastName', 'mobile', 'country', 'email', 'tags', 'valid', 'error', 'blocked', 'optedOut', 'created', 'updated', 'shoeSize'];
    expect(detectImportFormat(parley)).toBe('parley');
    expect(mapped(parley)).toEqual({
      firstName: 'firstName',
      lastName: 'lastName',
      mobile: 'mobile',
      country: 'country',
      email: 'email',
      tags: 'tags',
      shoeSize: 'shoeSize',
    });
  });

  it('names no format for a plain file', () => {
    expect(detectImportFormat(['mobile', 'firstName'])).toBeNull();
  });
});

describe('checkImportMapping', () => {
  const columns = ['Phone', 'First', 'Country'];

  it('needs a column for mobile and a column or default for country, and says which is missing', () => {
    expect(checkImportMapping(columns, { Phone: null, First: 'firstName', Country: 'country' }, {})).toBe(
      'Missing Mandatory Field: You must specify a field mapping for mobile',
    );
    expect(checkImportMapping(columns, { Phone: 'mobile', First: 'firstName', Country: null }, {})).toBe(
      'Missing Mandatory Field: You must specify a field mapping for country',
    );
    expect(checkImportMapping(columns, { Phone: 'mobile', First: 'firstName', Country: null }, { country: ' ' })).toBe(
      'Missing Mandatory Field: You must specify a field mapping for country',
    );
    expect(checkImportMapping(columns, { Phone: 'mobile', First: 'firstName', Country: null }, { country: 'GB' })).toBeNull();
    expect(checkImportMapping(columns, { Phone: 'mobile', First: null, Country: 'country' }, {})).toBeNull();
  });

  it('refuses a target fed twice, unknown columns, bad names and bad defaults', () => {
    expect(checkImportMapping(['Phone', 'A', 'B'], { Phone: 'mobile', A: 'shoeSize', B: 'shoeSize' }, { country: 'US' })).toBe(
      'Only one column can be mapped to the attribute shoeSize',
    );
    // A field may take several columns: each row uses the first that is not empty.
    expect(checkImportMapping(columns, { Phone: 'mobile', First: 'mobile', Country: 'country' }, {})).toBeNull();
    expect(checkImportMapping(columns, { Phone: 'mobile', Nope: 'firstName', Country: 'country' }, {})).toBe(
      'The file has no column named Nope',
    );
    expect(checkImportMapping(columns, { Phone: 'mobile', First: 'first name', Country: 'country' }, {})).toMatch(
      /^first name is not a contact field or a valid attribute name/,
    );
    expect(checkImportMapping(columns, { Phone: 'mobile', First: 'valid', Country: 'country' }, {})).toMatch(/^valid is not/);
    expect(checkImportMapping(columns, { Phone: 'mobile', First: null, Country: null }, { country: 'Narnia' })).toBe(
      'Country is not valid',
    );
    expect(checkImportMapping(columns, { Phone: 'mobile', First: null, Country: 'country' }, { mobile: '+1' })).toBe(
      'mobile cannot have a default',
    );
  });

  it('completes a partial mapping from the automatic one', () => {
    expect(completeImportMapping(['Phone', 'Mobile', 'Shoe'], { Phone: 'mobile' })).toEqual({
      Phone: 'mobile',
      Mobile: 'mobile',
      Shoe: 'shoe',
    });
    expect(completeImportMapping(['Phone', 'Mobile', 'Shoe'], { Mobile: null, Phone: 'shoe' })).toEqual({
      Phone: 'shoe',
      Mobile: null,
      Shoe: null,
    });
    expect(completeImportMapping(['Phone', 'Shoe'], { Shoe: '' })).toEqual({ Phone: 'mobile', Shoe: null });
  });
});

describe('countryCodeOf', () => {
  it('reads codes and English names', () => {
    expect(countryCodeOf('gb')).toBe('GB');
    expect(countryCodeOf('United Kingdom')).toBe('GB');
    expect(countryCodeOf('UK')).toBe('GB');
    expect(countryCodeOf('united states')).toBe('US');
    expect(countryCodeOf('USA')).toBe('US');
    expect(countryCodeOf('Deutschland')).toBeNull();
    expect(countryCodeOf('Germany')).toBe('DE');
    expect(countryCodeOf('ZZ')).toBeNull();
    expect(countryCodeOf('')).toBeNull();
  });
});
