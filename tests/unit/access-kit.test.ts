import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { KIT_DEPENDENCIES } from "#backend/domains/participation/kit-files.ts";

// The access kit's package.json pins the client libraries at the versions the product itself runs
// (docs/decisions/070): a dependency update that forgets the kit fails here.
describe("the access kit's pinned clients", () => {
  it("are the product's own versions", () => {
    const deps = JSON.parse(readFileSync("package.json", "utf8")).dependencies as Record<string, string>;
    for (const pinned of Object.values(KIT_DEPENDENCIES))
      for (const [name, version] of Object.entries(pinned)) expect(deps[name], name).toBe(version);
  });
});
