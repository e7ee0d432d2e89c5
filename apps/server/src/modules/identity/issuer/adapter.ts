import { and, eq, sql } from 'drizzle-orm';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Database } from '../../../platform/db/client.js';
import { oidcPayloads } from '../../../platform/db/schema/index.js';
import { apiClientMetadata, findApiClient } from './apiClients.js';

/** The issuer's storage over `oidc_payloads`, one instance per model (Session, AccessToken, ...). */
class PayloadAdapter implements Adapter {
  constructor(
    private readonly database: Database,
    private readonly model: string,
  ) {}

  private where(id: string) {
    return and(eq(oidcPayloads.model, this.model), eq(oidcPayloads.id, id));
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const values = {
      payload,
      grantId: payload.grantId ?? null,
      userCode: payload.userCode ?? null,
      uid: payload.uid ?? null,
      expiresAt: expiresIn === undefined ? null : new Date(Date.now() + expiresIn * 1000),
    };
    await this.database.db
      .insert(oidcPayloads)
      .values({ model: this.model, id, ...values })
      .onConflictDoUpdate({ target: [oidcPayloads.model, oidcPayloads.id], set: values });
  }

  private async findBy(condition: ReturnType<typeof and>): Promise<AdapterPayload | undefined> {
    const [row] = await this.database.db
      .select({ payload: oidcPayloads.payload, consumedAt: oidcPayloads.consumedAt })
      .from(oidcPayloads)
      .where(and(condition, sql`(${oidcPayloads.expiresAt} is null or ${oidcPayloads.expiresAt} > now())`))
      .limit(1);
    if (!row) return undefined;
    const payload = row.payload as AdapterPayload;
    return row.consumedAt === null ? payload : { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) };
  }

  find(id: string): Promise<AdapterPayload | undefined> {
    return this.findBy(this.where(id));
  }

  findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.findBy(and(eq(oidcPayloads.model, this.model), eq(oidcPayloads.uid, uid)));
  }

  findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.findBy(and(eq(oidcPayloads.model, this.model), eq(oidcPayloads.userCode, userCode)));
  }

  async consume(id: string): Promise<void> {
    await this.database.db.update(oidcPayloads).set({ consumedAt: new Date() }).where(this.where(id));
  }

  async destroy(id: string): Promise<void> {
    await this.database.db.delete(oidcPayloads).where(this.where(id));
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.database.db.delete(oidcPayloads).where(eq(oidcPayloads.grantId, grantId));
  }
}

/** Clients not configured statically are the API clients of the `api_clients` table. */
class ApiClientAdapter extends PayloadAdapter {
  constructor(private readonly clients: Database) {
    super(clients, 'Client');
  }

  override async find(id: string): Promise<AdapterPayload | undefined> {
    const row = await findApiClient(this.clients.db, id);
    return row ? apiClientMetadata(row) : undefined;
  }
}

export function payloadAdapterFactory(database: Database): (model: string) => Adapter {
  return (model) => (model === 'Client' ? new ApiClientAdapter(database) : new PayloadAdapter(database, model));
}
