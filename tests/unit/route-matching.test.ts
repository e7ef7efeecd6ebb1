import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

// The server's copy of @remix-run/router keeps ranked branches and compiled paths (patches/, docs/decisions/030).
const require = createRequire(import.meta.url);
const routerFile = require.resolve("@remix-run/router");
const router = require("@remix-run/router") as typeof import("@remix-run/router");

describe("route matching (patched @remix-run/router)", () => {
  it("is patched: npm install ran patch-package", () => {
    const source = readFileSync(routerFile, "utf8");
    expect(source).toContain("rankedBranchesOf(routes)");
    expect(source).toContain("compiledPaths.get(key)");
    expect(source).toContain("kept.matches.get(key)");
    // Remix keeps its server routes per build and React Router its data routes per tree, so every request
    // renders against the same tree (whose ranking and matches the router keeps).
    expect(readFileSync(require.resolve("@remix-run/react/dist/server.js"), "utf8")).toContain(
      "serverRoutesOf(manifest.routes",
    );
    expect(readFileSync(require.resolve("react-router-dom/server.js"), "utf8")).toContain("keptDataRoutes.get(routes)");
  });

  it("hands out a kept match as a copy: changing one answer's params changes no other", () => {
    const routes = [{ id: "root", path: "", children: [{ id: "item", path: "items/:id" }] }];
    const first = router.matchRoutes(routes, "/items/7")!;
    (first.at(-1)!.params as Record<string, string>).id = "changed";
    (first.at(-1) as { pathname: string }).pathname = "/changed";
    const second = router.matchRoutes(routes, "/items/7")!;
    expect(second.at(-1)!.params).toEqual({ id: "7" });
    expect(second.at(-1)!.pathname).toBe("/items/7");
    expect(second.at(-1)!.route).toBe(first.at(-1)!.route);
    expect(router.matchRoutes(routes, "/items/8")!.at(-1)!.params).toEqual({ id: "8" });
    expect(router.matchRoutes(routes, "/nothing")).toBeNull();
    expect(router.matchRoutes(routes, "/nothing")).toBeNull();
  });

  it("matches as before, the same tree many times and several trees side by side", () => {
    type Route = import("@remix-run/router").AgnosticRouteObject;
    const tree = (extra: Route[] = []): Route[] => [
      {
        id: "root",
        path: "",
        children: [
          {
            id: "home",
            path: "g/home",
            children: [{ id: "bills", path: "userCenter/MyBills" }, { id: "homeIndex", index: true }, ...extra],
          },
          { id: "splat", path: ":x/*" },
        ],
      },
    ];
    const a = tree();
    const b = tree([{ id: "extra", path: "extra" }]);
    for (let i = 0; i < 3; i++) {
      expect(router.matchRoutes(a, "/g/home/userCenter/MyBills")?.map((m) => m.route.id)).toEqual([
        "root",
        "home",
        "bills",
      ]);
      expect(router.matchRoutes(a, "/g/home")?.map((m) => m.route.id)).toEqual(["root", "home", "homeIndex"]);
      expect(router.matchRoutes(a, "/G/HOME/extra")?.map((m) => m.route.id)).toEqual(["root", "splat"]);
      expect(router.matchRoutes(b, "/G/HOME/extra")?.map((m) => m.route.id)).toEqual(["root", "home", "extra"]);
      expect(router.matchRoutes(a, "/zz/yy")?.at(-1)?.params).toEqual({ x: "zz", "*": "yy" });
    }
    expect(router.matchPath({ path: "/a/:b", caseSensitive: true }, "/A/1")).toBeNull();
    expect(router.matchPath({ path: "/a/:b" }, "/A/1")?.params).toEqual({ b: "1" });
  });
});
