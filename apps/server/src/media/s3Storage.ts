import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { Readable } from 'node:stream';
import type { MediaStorageConfig } from '../config.js';
import { assertMediaKey, type MediaStorage } from './storage.js';

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

  /** Closes the client's sockets. */
  destroy(): void {
    this.client.destroy();
  }
}
