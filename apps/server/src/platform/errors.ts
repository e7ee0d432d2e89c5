import type { ErrorCode } from '@parley/shared';

/** An error the API answers with its own status, code and message. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const notFound = (what = 'The requested resource'): AppError =>
  new AppError(404, 'not_found', `${what} was not found.`);

export const INTERNAL_ERROR_MESSAGE = 'Something went wrong on our side. Please try again later.';

/** The code for a status that a framework error carries. */
export function codeForStatus(status: number): ErrorCode {
  switch (status) {
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 409:
      return 'conflict';
    case 413:
      return 'payload_too_large';
    case 429:
      return 'rate_limited';
    case 503:
      return 'not_ready';
    default:
      return status >= 500 ? 'internal_error' : 'bad_request';
  }
}
