import type { Provider } from 'oidc-provider';

type Details = Awaited<ReturnType<Provider['interactionDetails']>>;

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/**
 * Grants what the client asked for, as a consent screen would. Only used for the first-party web
 * app, which needs no consent screen.
 */
export async function grantFirstPartyConsent(provider: Provider, details: Details): Promise<string> {
  const accountId = details.session?.accountId;
  const clientId = details.params.client_id;
  if (accountId === undefined || typeof clientId !== 'string') throw new Error('the interaction has no session');
  const existing = details.grantId === undefined ? undefined : await provider.Grant.find(details.grantId);
  const grant = existing ?? new provider.Grant({ accountId, clientId });
  const prompt = details.prompt.details;
  const scopes = stringList(prompt.missingOIDCScope);
  if (scopes.length > 0) grant.addOIDCScope(scopes.join(' '));
  const claims = stringList(prompt.missingOIDCClaims);
  if (claims.length > 0) grant.addOIDCClaims(claims);
  const resources = prompt.missingResourceScopes;
  if (resources !== null && typeof resources === 'object') {
    for (const [indicator, resourceScopes] of Object.entries(resources as Record<string, unknown>)) {
      grant.addResourceScope(indicator, stringList(resourceScopes).join(' '));
    }
  }
  return grant.save();
}
