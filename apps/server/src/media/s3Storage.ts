import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Readable } from 'node:stream';
import type { MediaStorageConfig } from '../config.js';
import { assertMediaKey, type MediaStorage, type StoredObject } from './storage.js';

export type S3StorageConfig = Extract<MediaStorageConfig, { kind: 's3' }>;

/** Media in an S3-compatible bucket (AWS, MinIO, R2 ...): for several processes on several machines. */
export class S3MediaStorage implements MediaStorage {
  readonly kind = 's3' as const;
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(config: S3StorageConfig) {
    this.bucket = config.bucket;
    this.client = new S3Client({
      region: config.region,
      forcePathStyle: config.forcePathStyle,
      ...(config.endpoint === null ? {} : { endpoint: config.endpoint }),
      ...(config.credentials === null ? {} : { credentials: config.credentials }),
    });
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    assertMediaKey(key);
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType, ContentLength: body.length }));
  }

  async get(key: string): Promise<Readable | null> {
    assertMediaKey(key);
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      const body = answer.Body;
      if (body instanceof Readable) return body;
      if (body === undefined) return null;
      // Outside Node's HTTP handler the SDK may hand a web stream.
      return Readable.from(await body.transformToByteArray());
    } catch (error) {
      if (error instanceof NoSuchKey || (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertMediaKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async list({ prefix = '', after = '', limit }: { prefix?: string; after?: string; limit: number }): Promise<StoredObject[]> {
    const found: StoredObject[] = [];
    let startAfter = after;
    // S3 answers keys in byte order, at most 1,000 a page.
    while (found.length < limit) {
      const answer = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          MaxKeys: Math.min(1000, limit - found.length),
          ...(prefix === '' ? {} : { Prefix: prefix }),
          ...(startAfter === '' ? {} : { StartAfter: startAfter }),
        }),
      );
      const contents = answer.Contents ?? [];
      for (const item of contents) {
        // Without a date the object counts as just written: the sweeps never take it for old.
        if (item.Key !== undefined) found.push({ key: item.Key, modifiedAt: item.LastModified ?? new Date() });
      }
      const last = contents.at(-1)?.Key;
      if (answer.IsTruncated !== true || last === undefined) break;
      startAfter = last;
    }
    return found;
  }

  /** Closes the client's sockets. */
  destroy(): void {
    this.client.destroy();
  }
}
