import { eq } from 'drizzle-orm';
import { INTEGRATION_NOT_CONNECTED_MESSAGE, type AirCallRefreshResponse } from '@parley/shared';
import { integrations, type IntegrationRow } from '../../../platform/db/schema/index.js';
import { AppError } from '../../../platform/errors.js';
import { findIntegration, sealCredentials, sessionOf, type IntegrationDeps } from '../integrationStore.js';
import { ProviderError } from '../providerError.js';
import { aircallCreateWebhook, aircallNumbers, aircallUsers, aircallWebhookActive } from './aircallApi.js';
import { aircallConnector, aircallTarget, aircallWebhookUrl } from './aircallConnector.js';
import { readDirectory, saveDirectory } from './aircallDirectory.js';

export async function requireAirCall(deps: IntegrationDeps, accountId: string): Promise<IntegrationRow> {
  const row = await findIntegration(deps.db, accountId, 'aircall');
  if (row === null) throw new AppError(409, 'conflict', INTEGRATION_NOT_CONNECTED_MESSAGE);
  return row;
}

/** The webhook AirCall posts calls to: kept when it is still there and active, else made again (its new token sealed). */
async function ensureWebhook(deps: IntegrationDeps, row: IntegrationRow): Promise<void> {
  const session = await sessionOf(deps, aircallConnector, row);
  const target = aircallTarget(session);
  const webhookId = session.credentials.webhookId ?? '';
  if (webhookId !== '' && (await aircallWebhookActive(target, webhookId))) return;
  const key = row.connection.webhookKey ?? '';
  const webhook = await aircallCreateWebhook(target, aircallWebhookUrl(deps.config, key));
  const credentials = { ...session.credentials, webhookId: webhook.webhookId, webhookToken: webhook.token };
  await deps.db
    .update(integrations)
    .set({ credentials: await sealCredentials(deps, row.id, credentials), updatedAt: new Date() })
    .where(eq(integrations.id, row.id));
}

/**
 * GET .../aircall/refresh (docs/integrations.md, "AirCall"): makes sure AirCall's webhook is there, then reads
 * every page of its numbers and users and keeps them, each number matched to the account's number with the
 * same digits unless an administrator chose otherwise. A failure at AirCall answers `success: false` with
 * AirCall's reason (the page shows it, or 'Refresh failed').
 */
export async function refreshAirCall(deps: IntegrationDeps, accountId: string): Promise<AirCallRefreshResponse> {
  const row = await requireAirCall(deps, accountId);
  try {
    await ensureWebhook(deps, row);
    const fresh = (await findIntegration(deps.db, accountId, 'aircall')) ?? row;
    const target = aircallTarget(await sessionOf(deps, aircallConnector, fresh));
    const numbers = await aircallNumbers(target);
    const users = await aircallUsers(target);
    await saveDirectory(deps.db, accountId, numbers, users);
  } catch (error) {
    if (error instanceof ProviderError) return { success: false, error: { message: error.message } };
    throw error;
  }
  return { success: true, data: await readDirectory(deps.db, accountId) };
}
