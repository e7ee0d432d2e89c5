import { describe, expect, it } from 'vitest';
import { saveTemplateSchema, templateListQuerySchema, templateTypeOf, unknownTemplateTokens, unknownTokensMessage } from './templates.js';

describe('template contract', () => {
  it('reads a type in any case, and nothing else', () => {
    expect(['sms', 'SMS', ' web ', 'optin', 'OptIn'].map(templateTypeOf)).toEqual(['SMS', 'SMS', 'Web', 'OptIn', 'OptIn']);
    expect(templateTypeOf('email')).toBeNull();
  });

  it('finds the tokens that are neither contact fields nor attributes, once each', () => {
    expect(unknownTemplateTokens('Hi {{{firstName}}} {{{plan}}} {{{tier}}} {{{tier}}} {{{Mobile}}} {{x}}', ['plan'])).toEqual(['tier', 'Mobile']);
    expect(unknownTemplateTokens('{{{ email }}}', [])).toEqual([]);
    expect(unknownTokensMessage(['a'])).toMatch(/^Unknown token \{\{\{a\}\}\}: /);
    expect(unknownTokensMessage(['a', 'b'])).toMatch(/^Unknown tokens \{\{\{a\}\}\}, \{\{\{b\}\}\}: /);
  });

  it('reads the list query: limit 0 for all, fields without id, empty values ignored', () => {
    expect(templateListQuerySchema.parse({})).toEqual({ limit: 10, offset: 0 });
    expect(templateListQuerySchema.parse({ type: 'optin', name: ' Join ', limit: '0', fields: ['id,name', 'template', 'name'] })).toEqual({
      type: 'OptIn',
      name: 'Join',
      limit: 0,
      offset: 0,
      fields: ['name', 'template'],
    });
    expect(templateListQuerySchema.parse({ type: '', name: '' })).toEqual({ limit: 10, offset: 0 });
    expect(templateListQuerySchema.safeParse({ fields: 'secret' }).success).toBe(false);
  });

  it('takes media without text, and requires a list for OptIn only', () => {
    const picture = { url: 'https://example.test/a.png', type: 'image/png' };
    expect(saveTemplateSchema.parse({ name: 'Pic', type: 'SMS', media: [picture] })).toEqual({
      name: 'Pic',
      type: 'SMS',
      template: '',
      media: [{ ...picture, filename: '' }],
      private: false,
      optInListId: null,
    });
    expect(saveTemplateSchema.parse({ name: 'A', type: 'Web', template: 'Hi', optInListId: null }).optInListId).toBeNull();
    const messages = (body: object) => saveTemplateSchema.safeParse(body).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(messages({ name: 'A', type: 'OptIn', template: 'Hi' })).toEqual(['optInListId: Required']);
    expect(messages({ name: 'A', type: 'SMS', template: ' ' })).toEqual(['template: Enter a message or attach media']);
  });
});
