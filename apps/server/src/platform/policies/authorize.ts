import { can, capabilityLabels, roleLabels, type Capability, type Role } from '@parley/shared';
import { AppError, notFound } from '../errors.js';

/**
 * Refuses what the role table does not allow. A null role means the signed-in user holds no role in the
 * account; that account is then someone else's and answers 404 like any record of another account.
 */
export function authorize(role: Role | null, capability: Capability): asserts role is Role {
  if (role === null) throw notFound('The account');
  if (!can(role, capability)) {
    throw new AppError(403, 'forbidden', `Your role (${roleLabels[role]}) may not do this: ${capabilityLabels[capability]}.`);
  }
}
