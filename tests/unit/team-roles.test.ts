import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { downloads } from "#contract/downloads.ts";
import { paths } from "#contract/paths.ts";
import {
  PERMISSION_REFUSED,
  PERMISSIONS,
  refusalMessage,
  ROLE_PERMISSIONS,
  roleMay,
  rolesWith,
  TEAM_ROLES,
} from "#contract/team-roles.ts";
import { UPLOAD_KINDS } from "#contract/uploads.ts";

const errors = (lng: string) =>
  JSON.parse(readFileSync(path.resolve(__dirname, `../../locales/${lng}/errors.json`), "utf8")) as Record<
    string,
    string
  >;
const en = errors("en");
const zh = errors("zh-CN");

// Issue 33, docs/decisions/075: the roles' permissions are one table; every user path declares one.
describe("team roles and permissions", () => {
  it("maps each role to its permissions as issue 33 describes", () => {
    const table = Object.fromEntries(TEAM_ROLES.map((r) => [r, PERMISSIONS.filter((p) => roleMay(r, p))]));
    expect(table).toEqual({
      owner: ["read", "write", "services", "pay", "account", "members", "own"],
      admin: ["read", "write", "services", "pay", "account", "own"],
      developer: ["read", "write", "services", "own"],
      finance: ["read", "write", "pay", "own"],
      viewer: ["read", "own"],
    });
    expect(ROLE_PERMISSIONS.owner).toEqual([...PERMISSIONS]);
    expect(rolesWith("pay")).toEqual(["owner", "admin", "finance"]);
    expect(rolesWith("services")).toEqual(["owner", "admin", "developer"]);
    expect(rolesWith("members")).toEqual(["owner"]);
  });

  it("every user path, download and upload declares a known permission; no other path does", () => {
    const specs = [...Object.entries(paths), ...Object.entries(downloads)] as [
      string,
      { auth: string; permission?: string },
    ][];
    for (const [name, spec] of specs) {
      if (spec.auth === "user") expect(PERMISSIONS, name).toContain(spec.permission);
      else expect(spec.permission, name).toBeUndefined();
    }
    for (const [kind, rule] of Object.entries(UPLOAD_KINDS)) expect(PERMISSIONS, kind).toContain(rule.permission);
  });

  it("each refusal names the roles that may, in both locales", () => {
    for (const key of Object.values(PERMISSION_REFUSED)) {
      expect(en[key]).toBeTruthy();
      expect(zh[key]).toBeTruthy();
    }
    expect(refusalMessage("pay")).toBe("MSG_33003");
    expect(en.MSG_33003).toMatch(/owner, admin or finance/);
  });
});
