import type { AccountUser } from '@parley/shared';
import type { AccountUserRecord } from './accountUsers.js';

export function presentAccountUser(record: AccountUserRecord): AccountUser {
  const { firstName, lastName, email, role } = record;
  return record.kind === 'member'
    ? { id: record.userId, firstName, lastName, email, role, status: 'active' }
    : { id: record.invitationId, firstName, lastName, email, role, status: 'invited' };
}
