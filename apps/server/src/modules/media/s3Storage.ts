import type { S3Client } from '@aws-sdk/client-s3';
import { Readable } from 'node:stream';
import type { MediaStorageConfig } from '../../platform/config.js';
import { assertMediaKey, type MediaStorage, type StoredObject } from './storage.js';

export type S3StorageConfig = Extract<MediaStorageConfig, { kind: 's3' }>;

type S3Sdk = typeof import('@aws-sdk/client-s3');
interface Connection {
  sdk: S3Sdk;
  client: S3Client;
}

/** Media in an S3-compatible bucket (AWS, MinIO, R2 ...): for several processes on several machines. */
export class S3MediaStorage implements MediaStorage {
  readonly kind = 's3' as const;
  private readonly bucket: string;
  private connection: Promise<Connection> | null = null;
  private client: S3Client | null = null;

  constructor(private readonly config: S3StorageConfig) {
    this.bucket = config.bucket;
  }

  /** The SDK loads with the first call, not with every importer of media (the CLI, a server on disk storage). */
  private connect(): Promise<Connection> {
    this.connection ??= import('@aws-sdk/client-s3').then((sdk) => {
      const { config } = this;
      const client = new sdk.S3Client({
        region: config.region,
        forcePathStyle: config.forcePathStyle,
        ...(config.endpoint === null ? {} : { endpoint: config.endpoint }),
        ...(config.credentials === null ? {} : { credentials: config.credentials }),
      });
      this.client = client;
      return { sdk, client };
    });
    return this.connection;
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    assertMediaKey(key);
    const { sdk, client } = await this.connect();
    await client.send(new sdk.PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType, ContentLength: body.length }));
  }

  async get(key: string): Promise<Readable | null> {
    assertMediaKey(key);
    const { sdk, client } = await this.connect();
    try {
      const answer = await client.send(new sdk.GetObjectCommand({ Bucket: this.bucket, Key: key }));
      const body = answer.Body;
      if (body instanceof Readable) return body;
      if (body === undefined) return null;
      // Outside Node's HTTP handler the SDK may hand a web stream.
      return Readable.from(await body.transformToByteArray());
    } catch (error) {
      if (error instanceof sdk.NoSuchKey || (error instanceof sdk.S3ServiceException && error.$metadata.httpStatusCode === 404)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertMediaKey(key);
    const { sdk, client } = await this.connect();
    await client.send(new sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async list({ prefix = '', after = '', limit }: { prefix?: string; after?: string; limit: number }): Promise<StoredObject[]> {
    const { sdk, client } = await this.connect();
    const found: StoredObject[] = [];
    let startAfter = after;
    // S3 answers keys in byte order, at most 1,000 a page.
    while (found.length < limit) {
      const answer = await client.send(
        new sdk.ListObjectsV2Command({
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

  /** Closes the client's sockets (none before the first call). */
  destroy(): void {
    if (this.client !== null) this.client.destroy();
    // A connection still being made is closed once it is made.
    else if (this.connection !== null) void this.connection.then(
        ({ client }) => {
          client.destroy();
        },
        () => undefined,
      );
  }
}
