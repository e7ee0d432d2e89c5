import { can, type Role } from '@parley/shared';

/**
 * The account menu's Groups entry. The hosted product shows it when the profile e-mail is on the
 * provider's own domain or at least one phone number is Active. A self-hosted Parley has no provider domain of its
 * own, so administrators (who set groups up, often before any number is active) always see it, and
 * everyone else once a phone number is active (docs/decisions.md).
 */
export const showsGroupsMenu = (role: Role, activePhoneNumbers: number): boolean =>
  can(role, 'groups.manage') || activePhoneNumbers > 0;
