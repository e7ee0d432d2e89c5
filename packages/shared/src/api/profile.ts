import { z } from 'zod';
import { recordResponse } from './pagination.js';

export const profileSchema = z
  .object({
    id: z.uuid(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    emailVerified: z.boolean(),
    mobile: z.object({ number: z.string(), country: z.string() }).nullable(),
    /** When the terms were accepted, or null while they are not. */
    tacAccepted: z.iso.datetime().nullable(),
    groups: z.array(z.object({ id: z.uuid(), name: z.string() })),
  })
  .meta({ id: 'Profile' });

export type Profile = z.infer<typeof profileSchema>;

export const profileResponseSchema = recordResponse(profileSchema);
