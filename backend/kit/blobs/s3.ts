import { createHash, randomBytes } from "node:crypto";
import { PassThrough, type Readable } from "node:stream";
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import type { BlobStore, Written } from "./index.ts";
import { isAddress } from "./index.ts";
import type { FilesUrl } from "./files-url.ts";

/**
 * Blobs as objects of an S3-compatible bucket (FILES_URL; docs/decisions/053): `<prefix><address>`. A write
 * streams to `<prefix>tmp/<random>` (a multipart upload: at most two 8 MB parts held) while the hash is
 * computed, then copies it to its address and deletes the temporary object: the object is in the bucket
 * before the row that names it commits.
 */
export function s3BlobStore(config: FilesUrl): BlobStore {
  const client = new S3Client({
    endpoint: config.endpoint,
    region: config.region,
    forcePathStyle: true,
    ...(config.credentials ? { credentials: config.credentials } : {}),
  });
  const Bucket = config.bucket;
  const keyOf = (address: string) => `${config.prefix}${address}`;
  const tmpPrefix = `${config.prefix}tmp/`;

  async function* objects(prefix: string) {
    let token: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken: token, MaxKeys: 1000 }),
      );
      for (const o of page.Contents ?? []) if (o.Key) yield { key: o.Key, modified: o.LastModified ?? new Date(0) };
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  return {
    kind: "s3",

    async write(bytes) {
      const temporary = `${tmpPrefix}${randomBytes(16).toString("hex")}`;
      const hash = createHash("sha256");
      let size = 0;
      const body = new PassThrough({ highWaterMark: 1024 * 1024 });
      const upload = new Upload({
        client,
        params: { Bucket, Key: temporary, Body: body, ContentType: "application/octet-stream" },
        queueSize: 2,
        partSize: 8 * 1024 * 1024,
      });
      const uploaded = upload.done();
      uploaded.catch(() => undefined);
      try {
        for await (const chunk of bytes) {
          hash.update(chunk);
          size += chunk.byteLength;
          if (!body.write(chunk)) await new Promise((resolve) => body.once("drain", resolve));
        }
        body.end();
        await uploaded;
      } catch (error) {
        body.destroy();
        await upload.abort().catch(() => undefined);
        await client.send(new DeleteObjectCommand({ Bucket, Key: temporary })).catch(() => undefined);
        throw error;
      }
      const address = hash.digest("hex");
      try {
        await client.send(
          new CopyObjectCommand({
            Bucket,
            Key: keyOf(address),
            CopySource: `${Bucket}/${temporary.split("/").map(encodeURIComponent).join("/")}`,
          }),
        );
      } finally {
        await client.send(new DeleteObjectCommand({ Bucket, Key: temporary })).catch(() => undefined);
      }
      return { address, size, pending: null } satisfies Written;
    },

    async settle() {
      // In the bucket since `write`.
    },

    async *read(_q, address, size, range) {
      if (!isAddress(address)) throw new Error(`not a content address: ${address}`);
      if (size === 0) return;
      const answer = await client.send(
        new GetObjectCommand({
          Bucket,
          Key: keyOf(address),
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      yield* answer.Body as Readable;
    },

    async sweep(before, named) {
      let removed = 0;
      for await (const o of objects(tmpPrefix))
        if (o.modified < before) await client.send(new DeleteObjectCommand({ Bucket, Key: o.key }));
      for await (const o of objects(config.prefix)) {
        const address = o.key.slice(config.prefix.length);
        if (!isAddress(address) || o.modified >= before || (await named(address))) continue;
        // Looked at again just before: the same bytes written since (a fresh copy) keep it.
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: o.key })).catch(() => null);
        if (!head || (head.LastModified ?? new Date(0)) >= before || (await named(address))) continue;
        await client.send(new DeleteObjectCommand({ Bucket, Key: o.key }));
        removed++;
      }
      return removed;
    },

    async *list() {
      for await (const o of objects(config.prefix)) {
        const address = o.key.slice(config.prefix.length);
        if (isAddress(address)) yield address;
      }
    },

    async close() {
      client.destroy();
    },
  };
}
