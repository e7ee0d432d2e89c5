import type { ClientConfig } from '@parley/shared';
import { createContext, useContext } from 'react';

export const ConfigContext = createContext<ClientConfig | null>(null);

/** The server's client configuration; only available below the config gate. */
export const useConfig = (): ClientConfig => {
  const config = useContext(ConfigContext);
  if (config === null) throw new Error('useConfig needs the config gate above it');
  return config;
};
