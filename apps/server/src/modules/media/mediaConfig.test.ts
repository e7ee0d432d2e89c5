import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../platform/config.js';

const load = (env: Record<string, string>) => loadConfig(env, [], '/srv/parley');

const problemsOf = (env: Record<string, string>): readonly string[] => {
  try {
    load(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
};

describe('media configuration', () => {
  it('keeps media under DATA_DIR/media by default', () => {
    expect(load({ DATA_DIR: './state' }).media.storage).toEqual({ kind: 'disk', dir: path.join('/srv/parley/state', 'media') });
  });

  it('uses an S3 bucket when MEDIA_S3_BUCKET is set', () => {
    expect(
      load({
        MEDIA_S3_BUCKET: 'parley-media',
        MEDIA_S3_ENDPOINT: 'http://minio:9000',
        MEDIA_S3_REGION: 'eu-west-1',
        MEDIA_S3_ACCESS_KEY_ID: 'id',
        MEDIA_S3_SECRET_ACCESS_KEY: 'secret',
        MEDIA_S3_FORCE_PATH_STYLE: 'true',
      }).media.storage,
    ).toEqual({
      kind: 's3',
      bucket: 'parley-media',
      endpoint: 'http://minio:9000',
      region: 'eu-west-1',
      credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
      forcePathStyle: true,
    });
    expect(load({ MEDIA_S3_BUCKET: 'parley-media' }).media.storage).toEqual({
      kind: 's3',
      bucket: 'parley-media',
      endpoint: null,
      region: 'us-east-1',
      credentials: null,
      forcePathStyle: false,
    });
  });

  it('names the variable at fault', () => {
    expect(problemsOf({ MEDIA_S3_BUCKET: 'Bad_Bucket' })).toEqual([expect.stringMatching(/^MEDIA_S3_BUCKET: must be an S3 bucket name/)]);
    expect(problemsOf({ MEDIA_S3_BUCKET: 'b-1', MEDIA_S3_ENDPOINT: 'minio:9000' })).toEqual(['MEDIA_S3_ENDPOINT: must be an absolute http(s) URL']);
    expect(problemsOf({ MEDIA_S3_BUCKET: 'b-1', MEDIA_S3_ACCESS_KEY_ID: 'id' })).toEqual([
      'MEDIA_S3_SECRET_ACCESS_KEY: is required when MEDIA_S3_ACCESS_KEY_ID is set (set both or neither)',
    ]);
    expect(problemsOf({ MEDIA_S3_ENDPOINT: 'http://minio:9000' })).toEqual(['MEDIA_S3_ENDPOINT: applies only with MEDIA_S3_BUCKET']);
    expect(problemsOf({ MEDIA_S3_FORCE_PATH_STYLE: 'maybe' })).toEqual(['MEDIA_S3_FORCE_PATH_STYLE: must be true or false']);
  });
});
