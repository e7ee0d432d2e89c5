import type { Logger } from 'pino';
import type { CarrierHandlers, InboundMessage, StatusReport } from '../carriers/index.js';
import type { EngineHandlers, NumberCarrierRef } from '../carriers/index.js';
import type { Database } from '../../platform/db/client.js';
import type { MessageRow } from '../../platform/db/schema/index.js';
import { receiveInbound } from './inbound.js';
import { applyStatusReports } from './receipts.js';

/**
 * What carriers hand to the messaging engine: delivery receipts (receipts.ts) and incoming messages
 * (inbound.ts). Each call resolves once its transaction committed and rejects when the adapter must hand the
 * same thing over again (a receipt whose message is not marked sent yet, a database error).
 */
export function createMessageHandlers(options: {
  database: Database;
  log: Logger;
  /** After a new inbound message committed: queue the fetch of its attachments (modules/messaging/inboundMedia.ts). */
  afterInbound?: (message: MessageRow) => Promise<void>;
}): EngineHandlers {
  const { database } = options;
  const log = options.log.child({ component: 'messaging' });
  const forSource = (source: NumberCarrierRef): CarrierHandlers => ({
    async status(report: StatusReport) {
      await applyStatusReports(database, [report], log, source);
    },
    async statusMany(reports: readonly StatusReport[]) {
      await applyStatusReports(database, reports, log, source);
    },
    async inbound(message: InboundMessage) {
      const result = await receiveInbound(database, source, message, log);
      if (result.outcome === 'received') await options.afterInbound?.(result.message);
    },
  });
  return { forConnection: forSource };
}
