import type { CatalogPlan } from '@parley/shared';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client';
import { PLAN_FOLLOW_FOR_MS, stepAfterChange } from './planChange';

const starter = { id: 'starter', name: 'Starter', price: '29.0000' } as CatalogPlan;

describe('the step after a plan change is asked', () => {
  it('awaits the provider when the change is processing', () => {
    expect(stepAfterChange(starter, { status: 'processing', action: null, error: null, message: 'Your request is being processed.' }, 1_000)).toEqual({
      kind: 'processing',
      plan: starter,
      until: 1_000 + PLAN_FOLLOW_FOR_MS,
    });
  });

  it('asks the card holder to authenticate when the provider wants it', () => {
    expect(
      stepAfterChange(starter, { status: 'requiresAction', action: { client_secret: 'sub_1_secret_x' }, error: null, message: '' }, 0),
    ).toEqual({ kind: 'authenticate', plan: starter, clientSecret: 'sub_1_secret_x' });
  });

  it("fails with the provider's reason", () => {
    expect(() => stepAfterChange(starter, { status: 'failed', action: null, error: 'Your card was declined.', message: '' }, 0)).toThrow(
      new ApiError('Your card was declined.'),
    );
  });
});
