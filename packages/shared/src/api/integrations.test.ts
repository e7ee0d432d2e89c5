import { describe, expect, it } from 'vitest';
import { activeCampaignConnectSchema, activeCampaignPropertiesSchema, changedProperties, isActiveCampaignApiUrl } from './integrations.js';

describe('ActiveCampaign API URL', () => {
  it.each(['https://acme.api-us1.com', 'https://acme.api-us1.com/', ' https://a-b.api-us1.com/api/3 '])('accepts %s', (url) => {
    expect(isActiveCampaignApiUrl(url)).toBe(true);
  });

  it.each(['http://acme.api-us1.com', 'https://api-us1.com', 'https://acme.api-us1.com.evil.test', 'https://user:pw@acme.api-us1.com', 'acme.api-us1.com', ''])(
    'refuses %s with the spec message',
    (apiUrl) => {
      const parsed = activeCampaignConnectSchema.safeParse({ apiUrl, apiKey: 'k' });
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe(apiUrl === '' ? 'Required' : 'Invalid ActiveCampaign API URL');
    },
  );
});

describe('properties', () => {
  it('sends only the fields that changed', () => {
    expect(changedProperties({ importTag: '', recordMessages: true }, { importTag: 'AC', recordMessages: true })).toEqual({ importTag: 'AC' });
    expect(changedProperties({ importTag: '', recordMessages: true }, { importTag: '', recordMessages: true })).toEqual({});
  });

  it('refuses unknown keys and a tag with a comma', () => {
    expect(activeCampaignPropertiesSchema.partial().safeParse({ colour: 'red' }).success).toBe(false);
    expect(activeCampaignPropertiesSchema.partial().safeParse({ importTag: 'a,b' }).success).toBe(false);
    expect(activeCampaignPropertiesSchema.partial().safeParse({ importTag: '' }).success).toBe(true);
  });
});
