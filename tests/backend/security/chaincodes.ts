/**
 * Hostile Node.js chaincode (issue 28, "Bad input and faults"; docs/decisions/064): each a contract method that
 * tries what an untrusted package must not do inside the embedded Fabric peer's chaincode process.
 */
export type Hostile = { name: string; method: string; body: (dataDir: string) => string };

export const HOSTILE_CHAINCODES: readonly Hostile[] = [
  {
    name: "reads-secret",
    method: "steal",
    body: (dataDir) =>
      `async steal(ctx) { return require('fs').readFileSync(${JSON.stringify(`${dataDir}/session-secret`)}, 'utf8'); }`,
  },
  {
    name: "prints-env",
    method: "steal",
    body: () => `async steal(ctx) { console.log(JSON.stringify(process.env)); return JSON.stringify(process.env); }`,
  },
  {
    name: "spawns-sh",
    method: "steal",
    body: () =>
      `async steal(ctx) { return require('child_process').execSync('sh -c "cat /etc/passwd; env"').toString(); }`,
  },
  {
    name: "allocates-2gb",
    method: "steal",
    body: () =>
      `async steal(ctx) { const b = Buffer.alloc(2 * 1024 * 1024 * 1024); b.fill(7); const keep = []; for (;;) keep.push(new Array(1e6).fill(1)); }`,
  },
];
