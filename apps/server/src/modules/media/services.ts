import type { Config } from '../../platform/config.js';
import { mediaSigningKey, MediaUrlSigner } from './signing.js';
import type { MediaStorage } from './storage.js';
import { createMediaStorage } from './storageFromConfig.js';

/** What the media routes, the carriers and the inbound fetch share: the storage and the URL signer. */
export interface MediaServices {
  readonly publicUrl: string;
  readonly storage: MediaStorage;
  /** The signer, or null without a secrets key; `create` may make the embedded key file (see signing.ts). */
  signer(create: boolean): Promise<MediaUrlSigner | null>;
}

export function createMediaServices(config: Config, storage: MediaStorage = createMediaStorage(config.media.storage)): MediaServices {
  let made: Promise<MediaUrlSigner | null> | null = null;
  const load = (create: boolean): Promise<MediaUrlSigner | null> =>
    mediaSigningKey(config.secrets, create).then((key) => (key === null ? null : new MediaUrlSigner(config.publicUrl, key)));
  return {
    publicUrl: config.publicUrl,
    storage,
    async signer(create) {
      if (made !== null) return made;
      const pending = load(create);
      const signer = await pending;
      // Kept once there is a key; without one a later call looks again (the key file may appear).
      if (signer !== null) made = pending;
      return signer;
    },
  };
}
