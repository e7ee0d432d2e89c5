import { eq, sql } from 'drizzle-orm';
import type { UpdatePhoneNumber } from '@parley/shared';
import type { Db } from '../../platform/db/client.js';
import { phoneNumbers, type PhoneNumberRow } from '../../platform/db/schema/index.js';
import { publishEvent } from '../../platform/events/outbox.js';
import { AppError, notFound } from '../../platform/errors.js';
import { lockPhoneNumber } from './queries.js';
import { presentPhoneNumber } from './phoneNumberPresenter.js';

export const FORWARD_TO_ITSELF_MESSAGE = 'forwardTo: A number cannot forward to itself';

/** The Phone Number Configuration dialog: forwardTo, universalReply and the name; what is not sent stays. */
export function updatePhoneNumber(db: Db, accountId: string, id: string, input: UpdatePhoneNumber): Promise<PhoneNumberRow> {
  return db.transaction(async (tx) => {
    const row = await lockPhoneNumber(tx, accountId, id);
    if (!row) throw notFound('The phone number');
    if (input.forwardTo !== undefined && input.forwardTo === row.number) {
      throw new AppError(400, 'validation_failed', FORWARD_TO_ITSELF_MESSAGE);
    }
    const [updated] = await tx
      .update(phoneNumbers)
      .set({
        ...(input.forwardTo === undefined ? {} : { forwardTo: input.forwardTo }),
        ...(input.universalReply === undefined ? {} : { universalReply: input.universalReply }),
        ...(input.name === undefined ? {} : { name: input.name }),
        updatedAt: sql`now()`,
      })
      .where(eq(phoneNumbers.id, row.id))
      .returning();
    if (!updated) throw notFound('The phone number');
    await publishEvent(tx, { type: 'phoneNumberUpdated', accountId, data: { phoneNumber: presentPhoneNumber(updated) } });
    return updated;
  });
}
