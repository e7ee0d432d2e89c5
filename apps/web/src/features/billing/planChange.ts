import type { CatalogPlan, ChangePlan } from '@parley/shared';
import { useMutation } from '@tanstack/react-query';
import { useApiClient } from '../../api/apiContext';
import { ApiError } from '../../api/client';
import { authenticateWithStripe, type StripeAuthenticator } from './stripeCardFlow';
import { usePaymentsClient } from './stripeLoader';

/** How long the Change Plan dialog follows the account's plan after a change: the provider confirms within a minute. */
export const PLAN_FOLLOW_FOR_MS = 90_000;

export const PLAN_AUTHENTICATION_REFUSED_MESSAGE = 'The payment was not authenticated, so the plan stays as it was.';

/** Where the Change Plan dialog is: comparing, confirming segments, paying, authenticating, awaiting the provider. */
export type PlanChangeStep =
  | { kind: 'compare' }
  | { kind: 'confirm'; plan: CatalogPlan }
  | { kind: 'payment'; plan: CatalogPlan; understoodAt: string }
  | { kind: 'authenticate'; plan: CatalogPlan; clientSecret: string }
  | { kind: 'processing'; plan: CatalogPlan; until: number };

interface ChangePlanAnswer {
  status: 'processing' | 'requiresAction' | 'failed';
  action: { client_secret: string } | null;
  error: string | null;
  message: string;
}

/** The next step once PUT .../plan answered: the provider's confirmation, or the card holder's authentication. */
export const stepAfterChange = (plan: CatalogPlan, answer: ChangePlanAnswer, now: number): PlanChangeStep => {
  if (answer.status === 'failed') throw new ApiError(answer.error ?? 'The plan could not be paid.');
  if (answer.status === 'requiresAction' && answer.action !== null) return { kind: 'authenticate', plan, clientSecret: answer.action.client_secret };
  return { kind: 'processing', plan, until: now + PLAN_FOLLOW_FOR_MS };
};

/**
 * With Stripe, the card holder's authentication is Stripe.js's (3-D Secure in Stripe's modal, for the
 * PaymentIntent paying the plan's invoice), then the change is processing; with the sandbox, the step that
 * asks for authentication is shown as it is (its own page). The one branch on the provider.
 */
export async function authenticatePlanChange(step: PlanChangeStep, stripe: (() => Promise<StripeAuthenticator>) | null, now: () => number): Promise<PlanChangeStep> {
  if (step.kind !== 'authenticate' || stripe === null) return step;
  await authenticateWithStripe(await stripe(), 'payment', step.clientSecret, PLAN_AUTHENTICATION_REFUSED_MESSAGE);
  return { kind: 'processing', plan: step.plan, until: now() + PLAN_FOLLOW_FOR_MS };
}

/** PUT .../plan (id, segmentUnderstanding), and the card holder's authentication of a payment that asks for it. */
export const usePlanChange = (accountId: string) => {
  const api = useApiClient();
  const payments = usePaymentsClient();
  const change = useMutation({
    mutationFn: async ({ plan, understoodAt }: { plan: CatalogPlan; understoodAt: string }) => {
      const body: ChangePlan = { id: plan.id, segmentUnderstanding: understoodAt };
      const answer = (await api.put<{ data: ChangePlanAnswer }>(`/v1/accounts/${accountId}/plan`, body)).data;
      const step = stepAfterChange(plan, answer, Date.now());
      return authenticatePlanChange(step, payments?.provider === 'stripe' ? payments.loadStripe : null, Date.now);
    },
  });
  const authenticate = useMutation({
    mutationFn: async ({ plan, clientSecret, approve }: { plan: CatalogPlan; clientSecret: string; approve: boolean }): Promise<PlanChangeStep> => {
      await api.post('/v1/billing/sandbox/authenticate', { clientSecret, approve });
      if (!approve) throw new ApiError(PLAN_AUTHENTICATION_REFUSED_MESSAGE);
      return { kind: 'processing', plan, until: Date.now() + PLAN_FOLLOW_FOR_MS };
    },
  });
  return { change, authenticate };
};
