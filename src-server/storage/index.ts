/**
 * The file store the configuration asks for (FILE_STORE): the local store under DATA_DIR/files, or an
 * S3-compatible bucket shared by several servers. The server and the command line use this one factory.
 */
import { join } from 'node:path';
import type { ServerConfig } from '../config';
import { createLocalFileStore, type FileStore } from './files';

export async function createFileStore(config: ServerConfig): Promise<FileStore> {
  if (config.FILE_STORE !== 's3') return createLocalFileStore(join(config.DATA_DIR, 'files'));
  const { S3_BUCKET: bucket, S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey } = config;
  // loadConfig already refuses these missing; a configuration built by hand gets the same clear stop.
  if (!bucket || !accessKeyId || !secretAccessKey)
    throw new Error('FILE_STORE=s3 needs S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY');
  // Loaded only here: the AWS SDK adds a quarter of a second to every start (the desktop's too).
  const { createS3FileStore } = await import('./s3');
  return createS3FileStore({
    bucket,
    region: config.S3_REGION,
    endpoint: config.S3_ENDPOINT,
    credentials: { accessKeyId, secretAccessKey },
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
    prefix: config.S3_PREFIX,
    // Uploads being received stay on this server's disk until they are sent to the bucket.
    tempDir: join(config.DATA_DIR, 'tmp', 'uploads'),
  });
}
