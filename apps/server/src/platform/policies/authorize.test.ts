import { capabilities, can, roles, type Capability, type Role } from '@parley/shared';
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { authorize } from './index.js';

const refusal = (role: Role | null, capability: Capability): AppError => {
  try {
    authorize(role, capability);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error(`authorize allowed ${capability}`);
};

describe('authorize', () => {
  it('lets a sender send messages', () => {
    expect(() => {
      authorize('Sender', 'messages.send');
    }).not.toThrow();
  });

  it('refuses a read-only user with a 403 that names the role and the action', () => {
    const error = refusal('ReadOnly', 'messages.send');
    expect(error.statusCode).toBe(403);
    expect(error.code).toBe('forbidden');
    expect(error.message).toBe('Your role (Read Only) may not do this: send messages.');
  });

  it('refuses a campaign manager the administrator areas', () => {
    expect(refusal('CampaignManager', 'users.manage').message).toBe(
      'Your role (Campaign Manager) may not do this: manage users.',
    );
  });

  it('answers 404 when the user holds no role in the account', () => {
    const error = refusal(null, 'account.view');
    expect(error.statusCode).toBe(404);
    expect(error.code).toBe('not_found');
    expect(error.message).toBe('The account was not found.');
  });

  it('follows the permission table for every role and capability', () => {
    for (const role of roles) {
      for (const capability of capabilities) {
        const run = () => {
          authorize(role, capability);
        };
        if (can(role, capability)) expect(run).not.toThrow();
        else expect(run).toThrow(AppError);
      }
    }
  });
});
