import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import S3rver from "s3rver";

/**
 * An S3-compatible server for the FILES_URL backend of the blob store (docs/decisions/053): s3rver (npm) on a
 * free port of the loopback, its bucket in a temporary folder, with s3rver's fixed credentials. Answers the
 * FILES_URL that names it and how to stop it.
 */
export async function startS3Server(bucket = "bsn-files", prefix = "") {
  const directory = mkdtempSync(path.join(tmpdir(), "bsn-s3rver-"));
  const server = new S3rver({
    port: 0,
    address: "127.0.0.1",
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const filesUrl = `s3+http://S3RVER:S3RVER@127.0.0.1:${port}/${bucket}${prefix ? `/${prefix}` : ""}?region=us-east-1`;
  return {
    filesUrl,
    directory,
    async stop() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
