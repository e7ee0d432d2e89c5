import type { Readable } from 'node:stream';

/**
 * Where media files' bytes live: a directory on disk (the embedded default) or an S3-compatible bucket.
 * The media_files row holds the key, the type and the size; the storage only keeps bytes.
 */
export interface MediaStorage {
  readonly kind: 'disk' | 's3';
  /** Stores the bytes under the key (replacing what was there). */
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** The bytes as a stream, or null when nothing is stored under the key. */
  get(key: string): Promise<Readable | null>;
  /** Removes the object; a missing one is not an error. */
  delete(key: string): Promise<void>;
  /**
   * Stored objects in key order (byte order of the key): those whose key starts with `prefix` and sorts after
   * `after`, at most `limit`. The media sweeps walk the storage with it page by page.
   */
  list(options: { prefix?: string; after?: string; limit: number }): Promise<StoredObject[]>;
}

/** An object as the storage lists it: its key and when it was last written. */
export interface StoredObject {
  key: string;
  modifiedAt: Date;
}

/** `{accountId}/{fileId}`: one folder per account, so an account's files can be listed or removed together. */
export const mediaKey = (accountId: string, fileId: string): string => `${accountId}/${fileId}`;

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** Whether the key has the shape mediaKey makes (what the storages accept). */
export function isMediaKey(key: string): boolean {
  const segments = key.split('/');
  return segments.length > 0 && segments.length <= 4 && segments.every((s) => SEGMENT.test(s) && s !== '..' && !s.includes('..'));
}

/** Keys are made by mediaKey; anything else (.., an absolute path) is refused before it reaches a file system. */
export function assertMediaKey(key: string): void {
  if (!isMediaKey(key)) throw new Error(`not a media key: ${JSON.stringify(key)}`);
}
