import { createContext, useContext } from 'react';
import type { ApiClient } from './client';

export const ApiClientContext = createContext<ApiClient | null>(null);

export const useApiClient = (): ApiClient => {
  const client = useContext(ApiClientContext);
  if (client === null) throw new Error('useApiClient needs an ApiClientContext provider');
  return client;
};
