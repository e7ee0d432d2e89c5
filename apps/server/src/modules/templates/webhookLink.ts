import { createHmac } from 'node:crypto';
import type { Config, SecretsConfig } from '../../platform/config.js';
import { purposeKey } from '../../platform/secrets/keyring.js';
import { sameSecretText } from '../../platform/secrets/sameSecretText.js';

/*
 * The web-hook link of a Web template (docs/optIn.md, Web-hook links):
 *
 *   {PUBLIC_URL}/{integration}/v1/webhook/{templateId}?user={userId}&group={groupId}&key={key}
 *
 * Whoever holds the link can make Parley send the template at the account's expense, so the link carries a
 * key: base64url HMAC-SHA256 of (templateId, userId, groupId) under a key derived from the deployment's
 * secrets key (SECRETS_KEY, or DATA_DIR/secrets.key on the embedded database). Only links Parley built work;
 * changing the template, user or group in a link breaks its key. Without a secrets key (PostgreSQL without
 * SECRETS_KEY) no link can be built and none is accepted. docs/optIn.md.
 */

export const templateWebhookIntegrations = ['hubspot', 'activecampaign'] as const;
export type TemplateWebhookIntegration = (typeof templateWebhookIntegrations)[number];

export interface TemplateWebhookTarget {
  templateId: string;
  /** The member the messages are sent as (must be allowed to send when the link is called). */
  userId: string;
  /** The group (or phone number) whose numbers send (phoneNumberFilter); null: the account's numbers. */
  groupId: string | null;
}

/** The route's path for an integration (outside /v1, as the link format has it). */
export const templateWebhookPath = (integration: TemplateWebhookIntegration): string => `/${integration}/v1/webhook/:templateId`;

/** This purpose's key, derived from the secrets key (platform/secrets/keyring.ts): null without one. */
const linkKey = (secrets: SecretsConfig, create: boolean): Promise<Buffer | null> =>
  purposeKey(secrets, 'parley template web-hook links v1', create);

const mac = (key: Buffer, target: TemplateWebhookTarget): Buffer =>
  createHmac('sha256', key)
    .update(`template-webhook\n${target.templateId.toLowerCase()}\n${target.userId.toLowerCase()}\n${(target.groupId ?? '').toLowerCase()}`)
    .digest();

/**
 * The full web-hook link of a Web template for an integration, as the templates page shows it; null when
 * this deployment has no secrets key to sign it with (PostgreSQL without SECRETS_KEY).
 */
export async function templateWebhookLink(
  config: Pick<Config, 'publicUrl' | 'secrets'>,
  integration: TemplateWebhookIntegration,
  target: TemplateWebhookTarget,
): Promise<string | null> {
  const key = await linkKey(config.secrets, true);
  if (key === null) return null;
  const query = new URLSearchParams({ user: target.userId, group: target.groupId ?? '', key: mac(key, target).toString('base64url') });
  return `${config.publicUrl}${templateWebhookPath(integration).replace(':templateId', encodeURIComponent(target.templateId))}?${query.toString()}`;
}

/** Whether `key` is the one Parley puts in the link of this template, user and group. */
export async function templateWebhookKeyIsValid(secrets: SecretsConfig, target: TemplateWebhookTarget, key: string): Promise<boolean> {
  const linkSecret = await linkKey(secrets, false);
  if (linkSecret === null) return false;
  return sameSecretText(key, mac(linkSecret, target).toString('base64url'));
}
