import "./setup-env.ts";
import { describe, expect, it, vi } from "vitest";
import * as z from "zod";

vi.mock("#backend/index.ts", () => ({ handleVueapi: vi.fn(), startBackend: vi.fn() }));

const { intentOf, parseFormOr400 } = await import("#app/lib/intents.server.ts");

function form(fields: Record<string, string | Blob>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}

/** What `read` throws (it must throw). */
function thrownBy(read: () => unknown): unknown {
  try {
    read();
  } catch (error) {
    return error;
  }
  throw new Error("expected a thrown Response");
}

async function expectBadRequest(read: () => unknown) {
  const error = thrownBy(read);
  expect(error).toBeInstanceOf(Response);
  const response = error as Response;
  expect(response.status).toBe(400);
  expect(await response.json()).toEqual({ messageKey: "errors:http.400" });
}

describe("intentOf (house habits 2 and 11)", () => {
  const intents = ["save", "delete"] as const;

  it("returns the intent when it is one of the route's", () => {
    expect(intentOf(form({ intent: "save", name: "x" }), intents)).toBe("save");
    expect(intentOf(form({ intent: "delete" }), intents)).toBe("delete");
  });

  it("answers an unknown intent with a 400", async () => {
    await expectBadRequest(() => intentOf(form({ intent: "drop" }), intents));
    // Names are compared exactly.
    await expectBadRequest(() => intentOf(form({ intent: "Save" }), intents));
    await expectBadRequest(() => intentOf(form({ intent: "save " }), intents));
  });

  it("answers a missing or empty intent with a 400", async () => {
    await expectBadRequest(() => intentOf(form({ name: "x" }), intents));
    await expectBadRequest(() => intentOf(form({ intent: "" }), intents));
  });

  it("answers a file posted as the intent with a 400", async () => {
    await expectBadRequest(() => intentOf(form({ intent: new File(["save"], "save") }), intents));
  });

  it("reads the first intent when a form carries several", () => {
    const data = form({ intent: "delete" });
    data.append("intent", "save");
    expect(intentOf(data, intents)).toBe("delete");
  });
});

describe("parseFormOr400", () => {
  const ref = z.object({ appVerId: z.coerce.number().int().positive() });

  it("returns the parsed values of a valid form", () => {
    expect(parseFormOr400(ref, form({ intent: "enable", appVerId: "12" }))).toEqual({ appVerId: 12 });
  });

  it("answers a form the schema refuses with a 400", async () => {
    await expectBadRequest(() => parseFormOr400(ref, form({ intent: "enable" })));
    await expectBadRequest(() => parseFormOr400(ref, form({ appVerId: "-3" })));
  });
});
