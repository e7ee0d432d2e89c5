import { registerSW } from 'virtual:pwa-register';

/** Installs the service worker; a new release takes over on its own (autoUpdate). */
export const registerServiceWorker = (): void => {
  if (!('serviceWorker' in navigator)) return;
  registerSW({ immediate: true });
};
