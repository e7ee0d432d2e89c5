import type { Profile } from '@parley/shared';
import type { UserRow } from '../../platform/db/schema/index.js';

export function presentProfile(user: UserRow, groups: { id: string; name: string }[]): Profile {
  return {
    id: user.id,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    emailVerified: user.emailVerifiedAt !== null,
    mobile:
      user.mobileNumber !== null && user.mobileCountry !== null
        ? { number: user.mobileNumber, country: user.mobileCountry }
        : null,
    tacAccepted: user.tacAcceptedAt?.toISOString() ?? null,
    groups,
  };
}
