// `npm run db:seed`: seeds the platform data and the demo accounts into the configured database, on purpose
// (the way to put demo data into a DATABASE_URL database). Starting the service once does both.
import { createVueapi } from "./index.ts";
import { readBackendEnv } from "./env.ts";

const service = await createVueapi({ ...readBackendEnv(), seedDemo: true, jobsIntervalMs: 0 });
console.warn("Seeded: city nodes and demo accounts.");
await service.close();
