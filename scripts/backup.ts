// `npm run backup [-- FILE]`: a consistent, restorable archive of everything under DATA_DIR (docs/decisions/017).
// While a server runs, it makes the snapshot (asked over DATA_DIR's lock socket); otherwise this command takes
// the lock and copies the files. With DATABASE_URL it copies the files only: the database is pg_dump's job.
import { readBackendEnv } from "#backend/env.ts";
import { backup, BackupError, defaultBackupFile, filesNote } from "#backend/kit/backup.ts";
import { DataDirInUseError, DataDirLockError } from "#backend/kit/data-dir-lock.ts";

const args = process.argv.slice(2);
if (args.includes("--help") || args.includes("-h") || args.length > 1) {
  console.log(
    "Usage: npm run backup [-- FILE]   (default FILE: backups/bsn-backup-<UTC time>.tar.gz)\nDATA_DIR, DATABASE_URL and FILES_URL are read from the environment, as the server reads them.",
  );
  process.exit(args.length > 1 ? 2 : 0);
}

try {
  const env = readBackendEnv();
  const result = await backup(env, args[0] ?? defaultBackupFile(), (line) => console.log(line));
  const by =
    result.manifest.madeBy === "server"
      ? `by the running server (process ${result.manifest.pid})`
      : "from the files (no server running)";
  const mb = (result.bytes / 1024 / 1024).toFixed(1);
  console.log(`Backup of ${env.dataDir} written to ${result.file}: ${result.entries} entries, ${mb} MB, made ${by}.`);
  // Where the stored files' bytes are (docs/decisions/053): a bucket's are not in the archive.
  const note = filesNote(result.manifest);
  if (note) console.log(note);
  console.log(`Restore it with: npm run restore -- ${result.file} [DATA_DIR]`);
} catch (error) {
  if (
    error instanceof BackupError ||
    error instanceof DataDirInUseError ||
    error instanceof DataDirLockError ||
    /^Invalid backend environment/.test((error as Error).message)
  ) {
    console.error(`Backup failed: ${(error as Error).message}`);
    process.exit(1);
  }
  throw error;
}
