import { z } from 'zod';

/*
 * "Send an SMS" as a HubSpot custom workflow action (docs/integrations-hubspot.md, "Workflow action"). When a
 * workflow runs it, HubSpot POSTs to the action URL, signed (hubspotSignature.ts), a body naming the HubSpot
 * account (origin.portalId), the enrolled record (object.objectId, with the properties the definition asks
 * for) and the values the workflow's author gave the action's input fields.
 */

/** The action's input fields: a Parley template, or a text; one of them is needed. */
export const hubspotActionInputFields = ['templateId', 'message'] as const;

/** The contact properties the action asks HubSpot to send along, so a send needs no second call. */
export const hubspotActionObjectProperties = ['firstname', 'lastname', 'email', 'phone', 'mobilephone'] as const;

const numericId = z.union([z.number().int().positive(), z.string().regex(/^\d{1,20}$/, 'Must be a number')]).transform(String);
const fieldValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

const workflowActionRequest = z.object({
  callbackId: z.string().min(1).max(200),
  origin: z.object({ portalId: numericId }),
  object: z.object({
    objectId: numericId,
    objectType: z.literal('CONTACT'),
    properties: z.record(z.string(), z.union([z.string(), z.number(), z.null()])).optional(),
  }),
  inputFields: z.record(z.string(), fieldValue),
});

export interface HubSpotWorkflowAction {
  /** HubSpot's id of this execution (for an asynchronous completion). */
  callbackId: string;
  /** The HubSpot account: the integration it was connected with (HubSpotGrant.hubId). */
  portalId: string;
  contactId: string;
  /** The input fields as text; empty and null values left out. */
  inputFields: Record<string, string>;
  /** The enrolled contact's properties HubSpot sent, as text. */
  properties: Record<string, string>;
}

export type HubSpotWorkflowActionParse = { ok: true; action: HubSpotWorkflowAction } | { ok: false; reason: string };

const texts = (record: Record<string, string | number | boolean | null> | undefined): Record<string, string> =>
  Object.fromEntries(
    Object.entries(record ?? {})
      .filter((entry): entry is [string, string | number | boolean] => entry[1] !== null && String(entry[1]).trim() !== '')
      .map(([name, value]) => [name, String(value).trim()]),
  );

/** The action's request body (parsed JSON) read, or why it is refused. */
export function parseHubSpotWorkflowAction(body: unknown): HubSpotWorkflowActionParse {
  const parsed = workflowActionRequest.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, reason: issue === undefined ? 'Invalid request' : `${issue.path.join('.') || 'body'}: ${issue.message}` };
  }
  const { callbackId, origin, object, inputFields } = parsed.data;
  const fields = texts(inputFields);
  if (fields.templateId === undefined && fields.message === undefined) return { ok: false, reason: 'inputFields: a templateId or a message is required' };
  return { ok: true, action: { callbackId, portalId: origin.portalId, contactId: object.objectId, inputFields: fields, properties: texts(object.properties) } };
}

/**
 * The action's definition, for HubSpot's automation v4 actions API (POST /automation/v4/actions/{appId}),
 * as docs/integrations-hubspot.md describes it.
 */
export function hubspotWorkflowActionDefinition(actionUrl: string): Record<string, unknown> {
  return {
    actionUrl,
    published: true,
    objectTypes: ['CONTACT'],
    objectRequestOptions: { properties: [...hubspotActionObjectProperties] },
    inputFields: [
      { typeDefinition: { name: 'templateId', type: 'string', fieldType: 'text' }, supportedValueTypes: ['STATIC_VALUE'], isRequired: false },
      { typeDefinition: { name: 'message', type: 'string', fieldType: 'textarea' }, supportedValueTypes: ['STATIC_VALUE', 'OBJECT_PROPERTY'], isRequired: false },
    ],
    labels: {
      en: {
        actionName: 'Send an SMS with Parley',
        actionDescription: "Texts the enrolled contact's mobile from your Parley account: a Parley template, or the message typed here.",
        inputFieldLabels: { templateId: 'Parley template id', message: 'Message' },
      },
    },
  };
}
