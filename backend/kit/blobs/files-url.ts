/**
 * FILES_URL (docs/decisions/053, README): where the bucket is and how to reach it, in one URL:
 *
 *   s3+https://<access key id>:<secret access key>@<host>[:<port>]/<bucket>[/<key prefix>][?region=<region>]
 *   s3+http://…   (an endpoint without TLS: MinIO, s3rver on a private network)
 *
 * The key and secret are percent-encoded; without them the SDK's default chain (AWS_ACCESS_KEY_ID…, an
 * instance role) is used. `region` defaults to us-east-1. Requests use path-style addressing
 * (https://host/bucket/key), which AWS S3, MinIO, Ceph and s3rver all take.
 */
export type FilesUrl = {
  endpoint: string;
  bucket: string;
  prefix: string;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
};

/** FILES_URL parsed, or the reason it is not one. */
export function parseFilesUrl(value: string): FilesUrl | { problem: string } {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { problem: "not a URL" };
  }
  const scheme = url.protocol.replace(/:$/, "");
  if (scheme !== "s3+https" && scheme !== "s3+http")
    return { problem: "the scheme is s3+https: (or s3+http: for an endpoint without TLS)" };
  const [bucket, ...rest] = url.pathname.replace(/^\/+/, "").split("/");
  if (!bucket || !/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket))
    return { problem: "the path starts with the bucket's name: s3+https://key:secret@host/bucket" };
  const prefix = rest.filter(Boolean).join("/");
  const user = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  if ((user === "") !== (password === "")) return { problem: "give both the access key id and the secret, or neither" };
  return {
    endpoint: `${scheme === "s3+https" ? "https" : "http"}://${url.host}`,
    bucket,
    prefix: prefix ? `${prefix}/` : "",
    region: url.searchParams.get("region") ?? "us-east-1",
    credentials: user ? { accessKeyId: user, secretAccessKey: password } : undefined,
  };
}

/** FILES_URL with its secret hidden (logs, backups' notes). */
export function describeFilesUrl(value: string): string {
  const parsed = parseFilesUrl(value);
  return "problem" in parsed ? "(invalid FILES_URL)" : `${parsed.endpoint}/${parsed.bucket}/${parsed.prefix}`;
}
