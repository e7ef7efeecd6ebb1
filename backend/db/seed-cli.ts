// `npm run db:seed`: seeds the platform data and the demo accounts into the configured database, on purpose
// (the way to put demo data into a DATABASE_URL database; the embedded one is seeded at every start).
import { readBackendEnv } from "../env";
import { openDatabase } from "./client";
import { seedDemo, seedPlatform } from "./seed";

const env = readBackendEnv();
const database = await openDatabase(env);
await seedPlatform(database.db);
const users = await seedDemo(database.db);
console.log(`Seeded ${database.kind}: city nodes and demo accounts (${users} users in all).`);
await database.close();
