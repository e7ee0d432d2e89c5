import type { PaymentSource } from '@parley/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApiClient } from '../../api/apiContext';
import { ApiError, type ApiClient } from '../../api/client';
import { accountQueryKey } from '../../session/queries';
import { expectedCardOf, isExpectedCard, sandboxCardBody, type CardHolder, type ExpectedCard, type PaymentDetails } from './paymentDetails';
import { paymentSourceQueryKey, type PaymentSourceAnswer } from './queries';
import { saveCardWithStripe, type CardSetupAnswer, type StripeLike } from './stripeCardFlow';

/** How long the dialog waits for the provider to confirm a saved card (the sandbox answers in moments). */
export const CARD_CONFIRM_TIMEOUT_MS = 60_000;
const CARD_CONFIRM_POLL_MS = 1_000;

export const CARD_NOT_CONFIRMED_MESSAGE = 'The payment provider has not confirmed the card yet. Please check the Plan tab again in a minute.';
export const AUTHENTICATION_REFUSED_MESSAGE = 'The card was not authenticated, so it was not saved.';

export type CardSetupOutcome = { kind: 'saved'; source: PaymentSource } | { kind: 'authenticate'; clientSecret: string };

const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    setTimeout(resolve, ms);
  });

/** Asks for the card on file until it is the one expected: the provider has confirmed it. */
export async function waitForCard(api: ApiClient, accountId: string, expected: ExpectedCard | null, timeoutMs = CARD_CONFIRM_TIMEOUT_MS): Promise<PaymentSource> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const { paymentSource } = (await api.get<{ data: PaymentSourceAnswer }>(`/v1/accounts/${accountId}/paymentsource`)).data;
    if (paymentSource !== null && isExpectedCard(paymentSource, expected)) return paymentSource;
    if (Date.now() >= until) throw new ApiError(CARD_NOT_CONFIRMED_MESSAGE);
    await sleep(CARD_CONFIRM_POLL_MS);
  }
}

const savePaymentSource = async (api: ApiClient, accountId: string, tokenId: string): Promise<CardSetupAnswer> =>
  (await api.put<{ data: CardSetupAnswer }>(`/v1/accounts/${accountId}/paymentsource`, { tokenId })).data;

/** The page's cache once a card is on file: the card, and the account record that shows whether auto top-up runs. */
const useCardSaved = (accountId: string) => {
  const queryClient = useQueryClient();
  return (source: PaymentSource): CardSetupOutcome => {
    queryClient.setQueryData<PaymentSourceAnswer>(paymentSourceQueryKey(accountId), (answer) =>
      answer === undefined ? answer : { ...answer, paymentSource: source },
    );
    void queryClient.invalidateQueries({ queryKey: paymentSourceQueryKey(accountId) });
    // A new card restarts an auto top-up a failed payment stopped: the account record says so.
    void queryClient.invalidateQueries({ queryKey: accountQueryKey(accountId), exact: true });
    return { kind: 'saved', source };
  };
};

/**
 * Saves a card with the sandbox (docs/billing.md): its card form makes a token, the account saves it
 * (PUT .../paymentsource), and the card is on file once the provider's event is applied. A card that asks
 * for authentication answers `authenticate` with the client secret for the sandbox's 3-D Secure step.
 */
export const useSandboxCardSetup = (accountId: string) => {
  const api = useApiClient();
  const saved = useCardSaved(accountId);
  const save = useMutation({
    mutationFn: async (details: PaymentDetails): Promise<CardSetupOutcome> => {
      const { tokenId } = (await api.post<{ data: { tokenId: string } }>('/v1/billing/sandbox/cards', sandboxCardBody(details))).data;
      const setup = await savePaymentSource(api, accountId, tokenId);
      if (setup.status === 'failed') throw new ApiError(setup.error ?? 'The card could not be set up.');
      if (setup.status === 'requiresAction' && setup.clientSecret !== null) return { kind: 'authenticate', clientSecret: setup.clientSecret };
      return saved(await waitForCard(api, accountId, expectedCardOf(details)));
    },
  });
  const authenticate = useMutation({
    mutationFn: async ({ details, clientSecret, approve }: { details: PaymentDetails; clientSecret: string; approve: boolean }) => {
      await api.post('/v1/billing/sandbox/authenticate', { clientSecret, approve });
      if (!approve) throw new ApiError(AUTHENTICATION_REFUSED_MESSAGE);
      return saved(await waitForCard(api, accountId, expectedCardOf(details)));
    },
  });
  return { save, authenticate };
};

/**
 * Saves a card with Stripe (docs/billing.md): Stripe.js makes the PaymentMethod from Stripe's card fields,
 * authenticates it in Stripe's own modal when the bank asks, and the card is on file once Stripe's event is
 * applied; the same account calls as the sandbox's.
 */
export const useStripeCardSetup = <Card>(accountId: string) => {
  const api = useApiClient();
  const saved = useCardSaved(accountId);
  return useMutation({
    mutationFn: async ({ stripe, card, holder }: { stripe: StripeLike<Card>; card: Card; holder: CardHolder }): Promise<CardSetupOutcome> =>
      saved(
        await saveCardWithStripe(stripe, card, holder, {
          saveToken: (tokenId) => savePaymentSource(api, accountId, tokenId),
          waitForCard: (expected) => waitForCard(api, accountId, expected),
        }),
      ),
  });
};
