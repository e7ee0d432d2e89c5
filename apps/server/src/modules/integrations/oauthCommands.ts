import { and, eq } from 'drizzle-orm';
import { can, INTEGRATION_NAMES, type IntegrationKind } from '@parley/shared';
import { accountMembers } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import type { OAuthAuth } from './connector.js';
import { requireConnector, saveConnection } from './integrationCommands.js';
import { connectorFetch, tokenCredentials, type IntegrationDeps } from './integrationStore.js';
import { consumeOAuthState, createOAuthState } from './oauthStates.js';
import { ProviderError } from './providerError.js';

export const OAUTH_STATE_INVALID_MESSAGE = 'The authorization expired or was not asked for here; connect again';

/** Where the provider sends the user back: one URL per kind, registered with the provider's app. */
export const oauthRedirectUri = (publicUrl: string, kind: IntegrationKind): string => `${publicUrl}/v1/integrations/${kind}/oauth/callback`;

function oauthOf(kind: IntegrationKind): OAuthAuth {
  const connector = requireConnector(kind);
  if (connector.auth.type !== 'oauth') throw new AppError(409, 'conflict', 'This integration connects with an API key');
  return connector.auth;
}

/** Whether the user who started the authorization may still change the account's integrations. */
async function stillManages(deps: IntegrationDeps, accountId: string, userId: string): Promise<boolean> {
  const [member] = await deps.db
    .select({ role: accountMembers.role })
    .from(accountMembers)
    .where(and(eq(accountMembers.accountId, accountId), eq(accountMembers.userId, userId)))
    .limit(1);
  return member !== undefined && can(member.role, 'integrations.manage');
}

/** The provider's authorization page for this user and account (state and PKCE kept here). */
export async function startOAuth(deps: IntegrationDeps, input: { accountId: string; userId: string; kind: IntegrationKind }): Promise<string> {
  const auth = oauthOf(input.kind);
  if (!auth.configured(deps.config)) throw new AppError(409, 'conflict', `${INTEGRATION_NAMES[input.kind]} is not configured on this server`);
  const { state, codeChallenge } = await createOAuthState(deps.db, input);
  return auth.authorizeUrl(deps.config, { state, codeChallenge, redirectUri: oauthRedirectUri(deps.config.publicUrl, input.kind) });
}

/**
 * The provider's redirect back: the state must be one this server gave, unused, unexpired and of this kind;
 * the code is exchanged with the kept verifier and the tokens stored. Answers the page to send the user to.
 */
export async function completeOAuth(deps: IntegrationDeps, kind: IntegrationKind, input: { code?: string; state?: string; error?: string }): Promise<string> {
  const page = `${deps.config.publicUrl}/integrations/${kind}`;
  const failed = (message: string): string => `${page}?error=${encodeURIComponent(message)}`;
  let auth: OAuthAuth;
  try {
    auth = oauthOf(kind);
  } catch (error) {
    if (error instanceof AppError) return failed(error.message);
    throw error;
  }
  const asked = input.state === undefined ? null : await consumeOAuthState(deps.db, input.state, kind);
  if (asked === null || !(await stillManages(deps, asked.accountId, asked.userId))) return failed(OAUTH_STATE_INVALID_MESSAGE);
  if (input.error !== undefined || input.code === undefined) return failed(input.error ?? 'The authorization was refused');
  try {
    const fetch = connectorFetch(deps.config, requireConnector(kind));
    const tokens = await auth.exchangeCode({ fetch, config: deps.config }, { code: input.code, codeVerifier: asked.codeVerifier, redirectUri: oauthRedirectUri(deps.config.publicUrl, kind) });
    await saveConnection(deps, { accountId: asked.accountId, userId: asked.userId, kind, connection: tokens.connection ?? {}, credentials: tokenCredentials({}, tokens) });
  } catch (error) {
    if (error instanceof ProviderError) return failed(error.message);
    throw error;
  }
  return page;
}
