import { describe, expect, it } from 'vitest';
import { hubspotWorkflowActionDefinition, parseHubSpotWorkflowAction } from './hubspotWorkflowAction.js';
import { HubSpotPeer } from './test/hubspotPeer.js';

const peer = new HubSpotPeer();
const contact = peer.addContact({ firstname: 'Ada', lastname: 'Lovelace', email: 'ada@acme.example', phone: null, mobilephone: '+14155550100' });

describe('the HubSpot workflow action request', () => {
  it('reads the HubSpot account, the contact and the input fields', () => {
    const body = peer.workflowActionBody(contact.id, { message: ' See you at 3 ', templateId: '', extra: null });
    const parsed = parseHubSpotWorkflowAction(JSON.parse(JSON.stringify(body)));
    expect(parsed).toEqual({
      ok: true,
      action: {
        callbackId: body.callbackId,
        portalId: String(peer.hubId),
        contactId: contact.id,
        inputFields: { message: 'See you at 3' },
        properties: { firstname: 'Ada', lastname: 'Lovelace', email: 'ada@acme.example', mobilephone: '+14155550100', hs_lastmodifieddate: contact.properties.hs_lastmodifieddate },
      },
    });
  });

  it('takes ids sent as strings and numbers as text, and a template without a message', () => {
    const parsed = parseHubSpotWorkflowAction({ callbackId: 'ap-1', origin: { portalId: '24681357' }, object: { objectId: 1001, objectType: 'CONTACT' }, inputFields: { templateId: 'tpl_1' } });
    expect(parsed).toMatchObject({ ok: true, action: { portalId: '24681357', contactId: '1001', inputFields: { templateId: 'tpl_1' }, properties: {} } });
  });

  it.each([
    ['not an object', 'hello', 'body'],
    ['no callback id', { origin: { portalId: 1 }, object: { objectId: 1, objectType: 'CONTACT' }, inputFields: { message: 'x' } }, 'callbackId'],
    ['a company, not a contact', { callbackId: 'a', origin: { portalId: 1 }, object: { objectId: 1, objectType: 'COMPANY' }, inputFields: { message: 'x' } }, 'object.objectType'],
    ['a non-numeric contact id', { callbackId: 'a', origin: { portalId: 1 }, object: { objectId: '1; drop', objectType: 'CONTACT' }, inputFields: { message: 'x' } }, 'object.objectId'],
    ['a negative portal id', { callbackId: 'a', origin: { portalId: -4 }, object: { objectId: 1, objectType: 'CONTACT' }, inputFields: { message: 'x' } }, 'origin.portalId'],
    ['no input fields', { callbackId: 'a', origin: { portalId: 1 }, object: { objectId: 1, objectType: 'CONTACT' } }, 'inputFields'],
    ['neither a template nor a message', { callbackId: 'a', origin: { portalId: 1 }, object: { objectId: 1, objectType: 'CONTACT' }, inputFields: { message: '  ' } }, 'inputFields'],
  ])('refuses %s', (_name, body, where) => {
    const parsed = parseHubSpotWorkflowAction(body);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason.startsWith(`${where}:`)).toBe(true);
  });

  it('defines the action for contacts, at the given URL, asking for the phone properties', () => {
    const definition = hubspotWorkflowActionDefinition('https://parley.example/v1/integrations/hubspot/actions/send');
    expect(definition).toMatchObject({ actionUrl: 'https://parley.example/v1/integrations/hubspot/actions/send', objectTypes: ['CONTACT'], objectRequestOptions: { properties: expect.arrayContaining(['phone', 'mobilephone']) as unknown } });
  });
});
