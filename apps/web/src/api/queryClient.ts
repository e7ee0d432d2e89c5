import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './client';

const maxRetries = 2;

/** Retry only what may pass on its own: no answer at all, or a server error. */
export const shouldRetry = (failureCount: number, error: unknown): boolean =>
  failureCount < maxRetries && error instanceof ApiError && (error.status === null || error.status >= 500);

export const createQueryClient = (): QueryClient =>
  new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
