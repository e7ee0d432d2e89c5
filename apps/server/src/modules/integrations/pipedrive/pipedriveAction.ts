import { and, desc, eq, sql } from 'drizzle-orm';
import { jwtVerify } from 'jose';
import { z } from 'zod';
import { findOrAddContactsByMobile } from '../../contacts/index.js';
import { integrationContacts, integrations } from '../../../platform/db/schema/index.js';
import { AppError } from '../../../platform/errors.js';
import { connectorFetch, sessionOf, type IntegrationDeps } from '../integrationStore.js';
import { ProviderError } from '../providerError.js';
import { pipedriveDealPerson, pipedrivePerson } from './pipedriveApi.js';
import { mobileOf, pipedriveConnector, targetOf } from './pipedriveConnector.js';

/*
 * The app extension's link action, "send from a deal or person" (docs/integrations.md, "Pipedrive"):
 * Pipedrive opens the URL with the company, the selection and a JWT it signed (HS256) with the app's JWT
 * secret. The JWT is the proof; the company it names picks the Parley account connected to it, the person's
 * mobile the contact (added when the account has none), and the browser goes to Parley's new message.
 */

export const PIPEDRIVE_ACTION_REFUSED = 'The Pipedrive request is not signed by the Parley app';

export const pipedriveActionQuery = z.object({
  resource: z.enum(['person', 'deal']),
  selectedIds: z.string().regex(/^\d+(,\d+)*$/),
  companyId: z.string().optional(),
  userId: z.string().optional(),
  view: z.string().optional(),
  isShared: z.string().optional(),
  token: z.string().min(1),
});
export type PipedriveActionQuery = z.infer<typeof pipedriveActionQuery>;

const claims = z.object({ companyId: z.union([z.number(), z.string()]).transform(String), userId: z.union([z.number(), z.string()]).optional() });

/** The company the JWT names; a forged, expired or unsigned token, or one of another company than the query's, is refused (401). */
export async function verifyPipedriveJwt(secret: string | null, query: Pick<PipedriveActionQuery, 'token' | 'companyId'>): Promise<string> {
  const refused = new AppError(401, 'unauthorized', PIPEDRIVE_ACTION_REFUSED);
  if (secret === null) throw refused;
  let payload: unknown;
  try {
    // jose requires exp to lie ahead when present; Pipedrive's tokens carry one.
    ({ payload } = await jwtVerify(query.token, new TextEncoder().encode(secret), { algorithms: ['HS256'], requiredClaims: ['exp'] }));
  } catch {
    throw refused;
  }
  const parsed = claims.safeParse(payload);
  if (!parsed.success || (query.companyId !== undefined && query.companyId !== parsed.data.companyId)) throw refused;
  return parsed.data.companyId;
}

/** Where the action sends the browser: the new message to the contact, or the Pipedrive page with what went wrong. */
export async function pipedriveAction(deps: IntegrationDeps, query: PipedriveActionQuery): Promise<string> {
  const companyId = await verifyPipedriveJwt(deps.config.integrations.pipedrive.jwtSecret, query);
  const failed = (message: string): string => `${deps.config.publicUrl}/integrations/pipedrive?error=${encodeURIComponent(message)}`;
  // The latest connection of that company, when several accounts connected it.
  const [row] = await deps.db
    .select()
    .from(integrations)
    .where(and(eq(integrations.kind, 'pipedrive'), eq(integrations.status, 'connected'), sql`${integrations.connection}->>'companyId' = ${companyId}`))
    .orderBy(desc(integrations.updatedAt))
    .limit(1);
  if (row === undefined) throw new AppError(404, 'not_found', 'No Parley account is connected to this Pipedrive company');
  try {
    const session = await sessionOf(deps, pipedriveConnector, row);
    const target = targetOf({ ...session, fetch: connectorFetch(deps.config, pipedriveConnector) });
    const selected = Number(query.selectedIds.split(',')[0]);
    const personId = query.resource === 'person' ? selected : await pipedriveDealPerson(target, selected);
    if (personId === null) return failed('This deal has no person to text');
    const person = await pipedrivePerson(target, personId);
    const phone = mobileOf(person);
    if (phone === '') return failed(`${person.name || 'This person'} has no mobile number`);
    const contactId = await deps.db.transaction(async (tx) => {
      const [id] = await findOrAddContactsByMobile(tx, row.accountId, [{ mobile: { number: phone, country: undefined }, firstName: person.first_name, lastName: person.last_name }]);
      if (id === undefined) throw new Error('no contact for the mobile');
      await tx.insert(integrationContacts).values({ accountId: row.accountId, kind: 'pipedrive', externalId: String(person.id), contactId: id, synced: {} }).onConflictDoNothing();
      return id;
    });
    return `${deps.config.publicUrl}/conversations?sendMessage=1&account=${row.accountId}&contact=${contactId}`;
  } catch (error) {
    if (error instanceof ProviderError) return failed(error.message);
    throw error;
  }
}
