// `npm run restore -- FILE [DATA_DIR] [--replace]`: brings an archive of `npm run backup` back into DATA_DIR
// (the argument, else the DATA_DIR variable, else ./data), which must be empty unless --replace moves its
// content aside. Refused while a server holds that DATA_DIR (docs/decisions/017).
import path from "node:path";
import { BackupError, filesNote, restore } from "#backend/kit/backup.ts";
import { DataDirInUseError, DataDirLockError } from "#backend/kit/data-dir-lock.ts";

const args = process.argv.slice(2);
const replace = args.includes("--replace");
const positional = args.filter((a) => !a.startsWith("--"));
if (
  args.includes("--help") ||
  positional.length < 1 ||
  positional.length > 2 ||
  args.some((a) => a.startsWith("--") && a !== "--replace")
) {
  console.log(
    "Usage: npm run restore -- FILE [DATA_DIR] [--replace]\n  DATA_DIR defaults to the DATA_DIR variable, else ./data; it must be empty unless --replace moves its content to DATA_DIR.replaced-<time>.",
  );
  process.exit(args.includes("--help") ? 0 : 2);
}

const [file, given] = positional;
const dataDir = path.resolve(given ?? (process.env.DATA_DIR || "./data"));
try {
  const result = await restore(file, dataDir, { replace });
  if (result.movedAside) console.log(`The previous content of ${dataDir} was moved to ${result.movedAside}.`);
  console.log(
    `Restored ${result.entries} entries of ${path.resolve(file)} (made ${result.manifest.createdAt} from ${result.manifest.dataDir}) into ${result.dataDir}.`,
  );
  const note = filesNote(result.manifest);
  if (note) console.log(note);
  if (result.manifest.database === "postgres") {
    console.log(
      "This archive has no database: it was made with DATABASE_URL. Restore the database from your pg_dump with pg_restore.",
    );
  } else if (process.env.DATABASE_URL) {
    console.log(
      "Note: DATABASE_URL is set, so a server started now uses that PostgreSQL, not the restored embedded database (pgdata/).",
    );
  }
} catch (error) {
  if (error instanceof BackupError || error instanceof DataDirInUseError || error instanceof DataDirLockError) {
    console.error(`Restore failed: ${error.message}`);
    process.exit(1);
  }
  throw error;
}
