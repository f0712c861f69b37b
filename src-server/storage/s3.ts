/**
 * A FileStore in an S3-compatible bucket (AWS S3, MinIO, Ceph RGW), for several servers of one
 * organisation sharing their files. Same content addressing as the local store: an object per content
 * under `<prefix>ab/cd/<sha256>`. Uploads being received still land on the local disk (`tempDir`);
 * `putFile` then streams them to the bucket as a multipart upload, a few parts in memory at a time.
 * Storing bytes the bucket holds already sends nothing, but an object last written long ago is copied
 * onto itself so its LastModified is now: the sweep (storage/sweep.ts) removes only objects no row names
 * that were last written before its grace period, and a writer naming old bytes again must not lose them.
 */
import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { PassThrough, Readable, pipeline } from 'node:stream';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { LIST_BATCH, sha256Of, type FileStore, type StoredEntry } from './files';

export interface S3FileStoreOptions {
  bucket: string;
  /** Default `us-east-1` (what MinIO and Ceph answer to unless configured otherwise). */
  region?: string;
  /** An S3-compatible server's URL (MinIO, Ceph); absent for AWS S3. */
  endpoint?: string;
  /** Absent: the SDK's default chain (environment, shared files, instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** `bucket` in the path rather than the host name; default true when `endpoint` is set. */
  forcePathStyle?: boolean;
  /** Put before every key, e.g. `sijill/` (a `/` is added when missing). */
  prefix?: string;
  /** A local folder for uploads being received (e.g. `<DATA_DIR>/tmp/uploads`). */
  tempDir: string;
  /** Multipart part size in bytes (at least 5 MiB, the S3 minimum); at most `queueSize` parts are in memory. */
  partSize?: number;
  queueSize?: number;
}

export interface S3FileStore extends FileStore {
  readonly client: S3Client;
  /** Closes the client's connections. */
  destroy(): void;
}

const MIN_PART = 5 * 1024 * 1024;
/** The local store's check (files.ts): a key is only ever built from a lowercase hex SHA-256. */
const SHA256 = /^[0-9a-f]{64}$/;
/**
 * An object stored again (a `put` of bytes already there) older than this is copied onto itself, so its
 * LastModified says it was just stored; well inside the sweep's shortest grace (SWEEP_GRACE_HOURS ≥ 1).
 */
const TOUCH_AFTER_MS = 15 * 60_000;

/** HeadObject answers a bodiless 404 (`NotFound`); GetObject a `NoSuchKey`. */
function isMissing(error: unknown): boolean {
  if (!(error instanceof S3ServiceException)) return false;
  return (
    error.name === 'NoSuchKey' ||
    error.name === 'NotFound' ||
    (error.name !== 'NoSuchBucket' && error.$metadata.httpStatusCode === 404)
  );
}

/** A missing object fails like a missing local file (`code: 'ENOENT'`); anything else as it came. */
function notStored(error: unknown, sha256: string): unknown {
  if (!isMissing(error)) return error;
  return Object.assign(new Error(`no stored file ${sha256}`, { cause: error }), { code: 'ENOENT' });
}

export function createS3FileStore(options: S3FileStoreOptions): S3FileStore {
  const bucket = options.bucket;
  if (!bucket) throw new Error('S3 file store: a bucket is required');
  let prefix = options.prefix ?? '';
  if (prefix && !prefix.endsWith('/')) prefix += '/';
  const partSize = Math.max(options.partSize ?? MIN_PART, MIN_PART);
  const queueSize = options.queueSize ?? 4;
  const client = new S3Client({
    region: options.region || 'us-east-1',
    endpoint: options.endpoint || undefined,
    forcePathStyle: options.forcePathStyle ?? !!options.endpoint,
    credentials: options.credentials,
    // Checksums only where S3 requires them: the SDK's default CRC trailers (aws-chunked bodies) are not
    // understood by every S3-compatible server (older Ceph and MinIO). Bodies stay covered by SigV4.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });

  const keyOf = (sha256: string) => {
    // The hash comes from the database, but a store must never be a key-injection primitive.
    if (!SHA256.test(sha256)) throw new Error(`not a sha256: ${sha256.slice(0, 80)}`);
    return `${prefix}${sha256.slice(0, 2)}/${sha256.slice(2, 4)}/${sha256}`;
  };
  /** When the object was last written (unknown: now, so never swept), or null when there is none. */
  const writtenAt = async (key: string): Promise<Date | null> => {
    try {
      const res = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      return res.LastModified ?? new Date();
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  };
  const exists = async (key: string) => (await writtenAt(key)) !== null;
  /**
   * Whether the object is there; one written long ago is copied onto itself (on the server: no bytes
   * travel), so the sweep sees it stored now and leaves it to the row about to name it.
   */
  const stored = async (key: string) => {
    const at = await writtenAt(key);
    if (at === null) return false;
    if (Date.now() - at.getTime() > TOUCH_AFTER_MS)
      await client.send(
        new CopyObjectCommand({
          Bucket: bucket,
          Key: key,
          CopySource: `${bucket}/${encodeURIComponent(key).replace(/%2F/g, '/')}`,
          MetadataDirective: 'REPLACE',
          ContentType: 'application/octet-stream',
        }),
      );
    return true;
  };

  return {
    client,
    destroy: () => client.destroy(),
    tempDir: options.tempDir,

    async put(bytes, known) {
      const sha256 = known ?? sha256Of(bytes);
      const key = keyOf(sha256);
      if (!(await stored(key))) {
        await client.send(
          new PutObjectCommand({
            Bucket: bucket,
            Key: key,
            Body: bytes,
            ContentLength: bytes.length,
            ContentType: 'application/octet-stream',
          }),
        );
      }
      return { sha256, size: bytes.length };
    },

    async putFile(path, sha256) {
      let body: Readable | undefined;
      try {
        const key = keyOf(sha256);
        if (await stored(key)) return;
        body = createReadStream(path);
        // One PUT below `partSize`, a multipart upload above it (aborted on failure: no stray parts).
        const upload = new Upload({
          client,
          params: { Bucket: bucket, Key: key, Body: body, ContentType: 'application/octet-stream' },
          partSize,
          queueSize,
          leavePartsOnError: false,
        });
        await upload.done();
      } finally {
        body?.destroy();
        await rm(path, { force: true });
      }
    },

    open(sha256, range) {
      const key = keyOf(sha256);
      const valid = (r: { start: number; end: number }) =>
        Number.isSafeInteger(r.start) && Number.isSafeInteger(r.end) && r.start >= 0 && r.end >= r.start;
      if (range && !valid(range)) throw new RangeError(`not a byte range: ${range.start}-${range.end}`);
      // The interface is synchronous: answer a stream now, feed it when the object's body arrives.
      const out = new PassThrough();
      const abort = new AbortController();
      // A reader gone before the answer came: cancel the request.
      const cancel = () => abort.abort();
      out.once('close', cancel);
      client
        .send(
          new GetObjectCommand({
            Bucket: bucket,
            Key: key,
            Range: range ? `bytes=${range.start}-${range.end}` : undefined,
          }),
          { abortSignal: abort.signal },
        )
        .then((res) => {
          out.off('close', cancel);
          const body = res.Body;
          if (!(body instanceof Readable)) throw new Error(`S3 answered no stream for ${sha256}`);
          if (out.destroyed) return void body.destroy();
          // An error on either side destroys both: `out` emits it, the connection is released.
          pipeline(body, out, () => {});
        })
        .catch((error: unknown) => {
          if (!out.destroyed) out.destroy(notStored(error, sha256) as Error);
        });
      return out;
    },

    async get(sha256) {
      const key = keyOf(sha256);
      let res;
      try {
        res = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      } catch (error) {
        throw notStored(error, sha256);
      }
      if (!res.Body) throw new Error(`S3 answered no body for ${sha256}`);
      const bytes = await res.Body.transformToByteArray();
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },

    has: async (sha256) => exists(keyOf(sha256)),
    modifiedAt: async (sha256) => writtenAt(keyOf(sha256)),

    async *list(options = {}) {
      const maxKeys = Math.min(Math.max(1, options.batchSize ?? LIST_BATCH), 1000); // S3 answers 1000 at most
      let token: string | undefined;
      do {
        // Keys come in UTF-8 binary order: SHA-256 order under `<prefix>ab/cd/`.
        const res = await client.send(
          new ListObjectsV2Command({
            Bucket: bucket,
            Prefix: prefix,
            MaxKeys: maxKeys,
            ContinuationToken: token,
            StartAfter: token || !options.after ? undefined : keyOf(options.after),
          }),
        );
        const batch: StoredEntry[] = [];
        for (const object of res.Contents ?? []) {
          const sha256 = object.Key?.slice(prefix.length + 6) ?? '';
          // Only `ab/cd/<sha256>` keys: anything else sharing the prefix is not this store's.
          if (!SHA256.test(sha256) || object.Key !== keyOf(sha256)) continue;
          batch.push({ sha256, size: object.Size ?? 0, modifiedAt: object.LastModified ?? new Date() });
        }
        if (batch.length) yield batch;
        token = res.IsTruncated ? res.NextContinuationToken : undefined;
      } while (token);
    },
    // The bucket answers to these keys. HeadBucket needs s3:ListBucket, as does `has` (without it S3
    // answers 403, not 404, for a missing object).
    probe: async () => {
      await client.send(new HeadBucketCommand({ Bucket: bucket }));
    },

    async remove(sha256) {
      // S3 answers a delete of a missing key with success too.
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: keyOf(sha256) }));
    },
  };
}
