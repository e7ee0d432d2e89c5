import { describe, expect, it } from 'vitest';
import { templateTypeOfPath } from './templatePaths';

describe('templateTypeOfPath', () => {
  it('reads the type from the last segment, SMS at /templates', () => {
    expect(['/templates', '/templates/', '/templates/sms', '/templates/web', '/templates/optin/'].map(templateTypeOfPath)).toEqual([
      'SMS',
      'SMS',
      'SMS',
      'Web',
      'OptIn',
    ]);
  });
});
