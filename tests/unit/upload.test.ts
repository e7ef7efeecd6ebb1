import { describe, expect, it } from "vitest";
import { dataRequestUrl, readAnswer, redirectTarget } from "#app/lib/use-upload.ts";

const ROUTE = "routes/g.home.PermissionedServices.PublishedServices_.NewServices";
const BASE =
  "http://127.0.0.1:3000/g/home/PermissionedServices/PublishedServices/NewServices?appState=add&appId=7&step=packages";
const headers = (h: Record<string, string>) => (name: string) =>
  Object.entries(h).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1] ?? null;

describe("upload as a Remix data request", () => {
  it("adds _data=<routeId> to the form's action and keeps its query", () => {
    const url = dataRequestUrl(
      "/g/home/PermissionedServices/PublishedServices/NewServices?appState=add&appId=7&step=packages",
      ROUTE,
      BASE,
    );
    const parsed = new URL(url!, BASE);
    expect(parsed.pathname).toBe("/g/home/PermissionedServices/PublishedServices/NewServices");
    expect(Object.fromEntries(parsed.searchParams)).toEqual({
      appState: "add",
      appId: "7",
      step: "packages",
      _data: ROUTE,
    });
  });

  it("leaves a form that posts to another origin alone", () => {
    expect(dataRequestUrl("https://elsewhere.example.com/upload", ROUTE, BASE)).toBeNull();
  });

  it("reads a redirect (204 with X-Remix-Redirect)", () => {
    expect(
      readAnswer(204, headers({ "X-Remix-Redirect": "/g/home/x?step=functions", "X-Remix-Status": "302" }), ""),
    ).toEqual({ kind: "redirect", to: "/g/home/x?step=functions", reloadDocument: false });
    expect(readAnswer(204, headers({ "X-Remix-Redirect": "/x", "X-Remix-Reload-Document": "true" }), "")).toMatchObject(
      { reloadDocument: true },
    );
  });

  it("hands the action's JSON on, whatever its status (Conform's 400 reply)", () => {
    const body = JSON.stringify({
      intent: "addPackage",
      result: { status: "error", error: { name: ["errors:MSG_37004"] } },
    });
    expect(
      readAnswer(400, headers({ "X-Remix-Response": "yes", "Content-Type": "application/json; charset=utf-8" }), body),
    ).toEqual({ kind: "data", data: JSON.parse(body) });
  });

  it("turns thrown responses, server errors and lost connections into translated message keys", () => {
    const json = { "Content-Type": "application/json" };
    expect(readAnswer(400, headers({ ...json, "X-Remix-Catch": "yes" }), '{"messageKey":"errors:http.400"}')).toEqual({
      kind: "error",
      messageKey: "errors:http.400",
    });
    expect(readAnswer(403, headers({ ...json, "X-Remix-Catch": "yes" }), '{"messageKey":"errors:MSG_37001"}')).toEqual({
      kind: "error",
      messageKey: "errors:MSG_37001",
    });
    expect(
      readAnswer(500, headers({ ...json, "X-Remix-Error": "yes" }), '{"message":"Unexpected Server Error"}'),
    ).toEqual({ kind: "error", messageKey: "errors:http.500" });
    expect(readAnswer(413, headers({ "Content-Type": "text/html" }), "<h1>Too large</h1>")).toEqual({
      kind: "error",
      messageKey: "errors:http.generic",
    });
    expect(readAnswer(502, headers({}), "")).toEqual({ kind: "error", messageKey: "errors:http.502" });
    expect(readAnswer(200, headers({ "Content-Type": "text/html" }), "<html>")).toEqual({
      kind: "error",
      messageKey: "errors:http.generic",
    });
    expect(readAnswer(0, headers({}), "")).toEqual({ kind: "error", messageKey: "errors:http.network" });
  });

  it("navigates within the app, replacing the entry when the redirect is the same address", () => {
    const here = new URL(BASE);
    expect(redirectTarget(`${here.pathname}${here.search}`, here)).toEqual({
      path: `${here.pathname}${here.search}`,
      replace: true,
    });
    expect(
      redirectTarget(
        "/g/home/PermissionedServices/PublishedServices/NewServices?appState=add&appId=7&step=functions",
        here,
      ),
    ).toMatchObject({ replace: false });
    expect(redirectTarget("https://pay.example.com/checkout", here)).toBeNull();
  });
});
