import { describe, expect, it } from "vitest";
import { argsOfText, ideDeployFormSchema, idePath } from "#contract/ide.ts";
import { deploymentName, filesUnder, isSolidity, movedPath, parentsOf } from "#backend/domains/ide/rules.ts";

// docs/decisions/044: the IDE's pure rules, by tables.

describe("IDE paths", () => {
  it.each([
    ["contracts/Token.sol", true],
    ["Token.sol", true],
    ["a/b/c-d_e.f.sol", true],
    ["../etc/passwd", false],
    ["a/../b.sol", false],
    ["/root.sol", false],
    ["a//b.sol", false],
    ["a/b/", false],
    ["name with space.sol", false],
    ["", false],
  ])("%s is a valid path: %s", (path, valid) => {
    expect(idePath().safeParse(path).success).toBe(valid);
  });

  it.each([
    ["a/b/c.sol", ["a", "a/b"]],
    ["c.sol", []],
  ])("the folders of %s are %j", (path, folders) => {
    expect(parentsOf(path)).toEqual(folders);
  });

  it("moves paths under a folder and escapes LIKE wildcards of the folder", () => {
    expect(movedPath("a/b/c.sol", "a", "z")).toBe("z/b/c.sol");
    expect(movedPath("a/b/c.sol", "a/b", "a/x")).toBe("a/x/c.sol");
    expect(filesUnder("my_dir")).toBe("my\\_dir/");
    expect(filesUnder("50%")).toBe("50\\%/");
  });

  it("compiles .sol files only and cuts deployment names to 50 characters", () => {
    expect(isSolidity("a/T.sol")).toBe(true);
    expect(isSolidity("notes.md")).toBe(false);
    expect(deploymentName("X".repeat(80))).toHaveLength(50);
  });
});

describe("the deployment form", () => {
  it("reads one constructor argument per line and refuses more than 20", () => {
    expect(argsOfText("41\n\n  hello \r\n")).toEqual(["41", "hello"]);
    expect(
      ideDeployFormSchema.safeParse({
        contract: "a.sol:A",
        target: "1",
        constructorArgsText: Array(21).fill("1").join("\n"),
      }).success,
    ).toBe(false);
    expect(
      ideDeployFormSchema.safeParse({ contract: "a.sol:A", target: "1", constructorArgsText: "1\n2" }).success,
    ).toBe(true);
    expect(ideDeployFormSchema.safeParse({ contract: "", target: "1" }).success).toBe(false);
  });

  it("deploys to the test network or to a custody account's project, nothing else", () => {
    expect(ideDeployFormSchema.safeParse({ contract: "a.sol:A", target: "test" }).success).toBe(true);
    for (const target of ["", "0", "-1", "tests", "1.5", "12345678901", undefined]) {
      expect(ideDeployFormSchema.safeParse({ contract: "a.sol:A", target }).success, String(target)).toBe(false);
    }
  });
});
