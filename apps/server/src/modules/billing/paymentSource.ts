import type { Db } from '../../platform/db/client.js';
import { AppError } from '../../platform/errors.js';
import { ensureCustomer } from './payments/customers.js';
import type { PaymentProvider } from './payments/provider.js';
import { SandboxCardError } from './payments/sandbox/sandboxProvider.js';
import { requireVerifiedPayer } from './verifiedPayer.js';

export interface PaymentSourceSetup {
  status: 'processing' | 'requiresAction' | 'failed';
  clientSecret: string | null;
  error: string | null;
}

/**
 * Saves the card the card form tokenised as the account's payment method (docs/billing.md). The provider
 * confirms it with an event, which writes brand, last 4 and expiry; until then the old card stays.
 */
export async function setPaymentSource(
  db: Db,
  provider: PaymentProvider,
  request: { accountId: string; userId: string | null; tokenId: string },
): Promise<PaymentSourceSetup> {
  await requireVerifiedPayer(db, request.userId);
  const customer = await ensureCustomer(db, provider, request.accountId);
  try {
    const result = await provider.setupCard(
      { accountId: request.accountId, customerId: customer.customerId, tokenId: request.tokenId },
      `card:${request.accountId}:${request.tokenId}`,
    );
    if (result.status === 'failed') throw new AppError(402, 'bad_request', result.error ?? 'The card could not be set up.');
    return { status: result.status === 'succeeded' ? 'processing' : 'requiresAction', clientSecret: result.clientSecret, error: null };
  } catch (error) {
    if (error instanceof SandboxCardError) throw new AppError(400, 'bad_request', error.message);
    throw error;
  }
}
