import { z } from 'zod';
import { errorBodySchema, FEATURE_BOARD_PEOPLE_ONLY_MESSAGE } from '@parley/shared';
import { peopleOnly } from '../../identity/index.js';

/* What the board's routes share. */

// Every string is taken: a malformed id is simply not found.
export const postParams = z.object({ id: z.string() });
export const boardErrors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
export const boardTags = ['featurerequests'];
/** The board is the deployment's, for signed-in people (no account in the path); API clients have no place there. */
export const boardRoute = { config: { permission: 'authenticated' as const }, preValidation: peopleOnly(FEATURE_BOARD_PEOPLE_ONLY_MESSAGE) };

