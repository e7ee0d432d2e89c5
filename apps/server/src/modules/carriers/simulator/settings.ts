import { eq, sql } from 'drizzle-orm';
import type { SaveSimulatorSettings, SimulatorErrorCode } from '@parley/shared';
import type { Queryable } from '../../../platform/db/client.js';
import { simulatorSettings } from '../../../platform/db/schema/index.js';

/** The one row of simulator_settings. */
const SETTINGS_ID = 1;

/** What the virtual network does with what it is sent, read once per submit batch. */
export interface SimulatorNetworkSettings {
  seed: number;
  latencyMs: number;
  /** 0 to 1. */
  failureRate: number;
  messagesPerSecond: number;
  errorCodes: SimulatorErrorCode[];
  updatedAt: Date;
}

/** Twilio's codes and texts for the usual failures, so the simulator reads like a real carrier. */
export const defaultSimulatorErrorCodes: readonly SimulatorErrorCode[] = [
  { code: '30003', text: 'Unreachable destination handset', stage: 'delivery' },
  { code: '30005', text: 'Unknown destination handset', stage: 'delivery' },
  { code: '30006', text: 'Landline or unreachable carrier', stage: 'delivery' },
  { code: '21610', text: 'Attempt to send to unsubscribed recipient', stage: 'submit' },
];

/**
 * The settings a fresh deployment starts with: every message delivered after 300 ms, 10 messages per
 * second per business number (the table's defaults), the usual error codes ready for a failure rate.
 */
export const defaultSimulatorSettings = {
  seed: 1,
  latencyMs: 300,
  failureRate: '0',
  messagesPerSecond: 10,
  errorCodes: [...defaultSimulatorErrorCodes],
} as const;

function fromRow(row: typeof simulatorSettings.$inferSelect): SimulatorNetworkSettings {
  return {
    seed: row.seed,
    latencyMs: row.latencyMs,
    failureRate: Number(row.failureRate),
    messagesPerSecond: row.messagesPerSecond,
    errorCodes: row.errorCodes,
    updatedAt: row.updatedAt,
  };
}

/** The settings, the row created with the defaults on first use. */
export async function loadSimulatorSettings(q: Queryable): Promise<SimulatorNetworkSettings> {
  const [row] = await q.select().from(simulatorSettings).where(eq(simulatorSettings.id, SETTINGS_ID));
  if (row) return fromRow(row);
  const [created] = await q
    .insert(simulatorSettings)
    .values({ id: SETTINGS_ID, ...defaultSimulatorSettings, errorCodes: [...defaultSimulatorErrorCodes] })
    .onConflictDoUpdate({ target: simulatorSettings.id, set: { id: sql`excluded.id` } })
    .returning();
  if (!created) throw new Error('the simulator settings row was not written');
  return fromRow(created);
}

/** Replaces the settings (validated by saveSimulatorSettingsSchema) and answers them. */
export async function saveSimulatorSettings(q: Queryable, input: SaveSimulatorSettings): Promise<SimulatorNetworkSettings> {
  const values = {
    seed: input.seed,
    latencyMs: input.latencyMs,
    // Exact to the column's 4 decimals, never a float's long tail.
    failureRate: input.failureRate.toFixed(4),
    messagesPerSecond: input.messagesPerSecond,
    errorCodes: input.errorCodes,
    updatedAt: new Date(),
  };
  const [row] = await q
    .insert(simulatorSettings)
    .values({ id: SETTINGS_ID, ...values })
    .onConflictDoUpdate({ target: simulatorSettings.id, set: values })
    .returning();
  if (!row) throw new Error('the simulator settings row was not written');
  return fromRow(row);
}
