import type { MediaStorageConfig } from '../../platform/config.js';
import { DiskMediaStorage } from './diskStorage.js';
import { S3MediaStorage } from './s3Storage.js';
import type { MediaStorage } from './storage.js';

/** The storage the config names: DATA_DIR/media, or the MEDIA_S3_* bucket. */
export function createMediaStorage(config: MediaStorageConfig): MediaStorage {
  switch (config.kind) {
    case 'disk':
      return new DiskMediaStorage(config.dir);
    case 's3':
      return new S3MediaStorage(config);
  }
}
