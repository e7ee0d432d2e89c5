import type { FastifyRequest } from 'fastify';
import { principalOf } from './guard.js';
import { AppError } from '../../platform/errors.js';

export const API_CLIENTS_CANNOT_CREATE_ACCOUNTS = 'API credentials may not create accounts.';
export const API_CLIENTS_HAVE_NO_PROFILE = 'API credentials have no profile.';

/**
 * A route hook (preValidation, so it answers before the body is judged) that refuses API clients with
 * a 403: some calls belong to a signed-in person only.
 */
export const peopleOnly =
  (message: string) =>
  (request: FastifyRequest): Promise<void> => {
    if (principalOf(request).clientId !== undefined) return Promise.reject(new AppError(403, 'forbidden', message));
    return Promise.resolve();
  };
