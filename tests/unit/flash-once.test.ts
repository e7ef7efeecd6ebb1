import { describe, expect, it } from "vitest";
import { flashNamespaces, isFormLibrarySubmit } from "#app/components/FlashBanner.tsx";

describe("the flash shown once (issue 30 item 2)", () => {
  it("is left alone by Conform's own submissions (blur validation), not by the person's", () => {
    expect(isFormLibrarySubmit({ submitter: { name: "__intent__" } as HTMLButtonElement })).toBe(true);
    expect(isFormLibrarySubmit({ submitter: { name: "intent" } as HTMLButtonElement })).toBe(false);
    expect(isFormLibrarySubmit({ submitter: null })).toBe(false);
  });

  it("loads the namespace its key names", () => {
    expect(flashNamespaces({ kind: "success", key: "wizard:flash.saved" })).toEqual(["wizard"]);
    expect(flashNamespaces({ kind: "success", key: "flash.saved" })).toEqual([]);
    expect(flashNamespaces(null)).toEqual([]);
  });
});
