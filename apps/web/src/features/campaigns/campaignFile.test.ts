import { describe, expect, it } from 'vitest';
import { campaignFileRows } from './campaignFile';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const mappings = [
  { column: 'Phone', field: 'mobile' },
  { column: 'First', field: 'firstName' },
];

describe('campaignFileRows', () => {
  it('keeps the mapped columns of each row that has something in it', () => {
    const reading = campaignFileRows(bytes('Phone,First,Notes\n+14155552301,Rita,x\n\n+14155552302,Sam,y\n'), mappings);
    expect(reading).toEqual({
      ok: true,
      missing: [],
      rows: [
        { Phone: '+14155552301', First: 'Rita' },
        { Phone: '+14155552302', First: 'Sam' },
      ],
    });
  });

  it('names the mapped columns the file lacks', () => {
    const reading = campaignFileRows(bytes('Phone;Other\n+14155552301;a\n'), mappings);
    expect(reading.ok && reading.missing).toEqual(['First']);
  });

  it('refuses a file with a header and no rows', () => {
    expect(campaignFileRows(bytes('Phone,First\n'), mappings)).toEqual({ ok: false, message: 'The file has no rows' });
  });
});
