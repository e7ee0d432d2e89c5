import type { Profile } from '@parley/shared';
import type { UserRow } from '../db/schema/index.js';

export function presentProfile(user: UserRow): Profile {
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
    // Groups arrive with the groups capability.
    groups: [],
  };
}
