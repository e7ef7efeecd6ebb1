import { strToU8, zipSync } from "fflate";
import type { APIRequestContext, Page } from "@playwright/test";
import { expect } from "./fixtures.ts";
import { tinyPng } from "../tests/fixtures/files.ts";
import { CAPTCHA, PASSWORD, signInOverHttp } from "./support.ts";

/** Shared by the wizard specs: its address, test files made in the test, logging in and the /vueapi wizard paths. */
export const WIZARD = "/g/home/PermissionedServices/PublishedServices/NewServices";

const MAIN_JS = `"use strict";
const { Contract } = require("fabric-contract-api");

// The FUNC the wizard specs declare, so the test job finds it in the source; Init runs initLedger with the
// wizard's init parameters ("initLedger,genesis") on the embedded Fabric peer.
class Asset extends Contract {
  async initLedger(ctx, seed) {
    await ctx.stub.putState("seed", Buffer.from(seed));
  }

  async createAsset(ctx, id) {
    await ctx.stub.putState(id, Buffer.from("{}"));
  }
}

module.exports.contracts = [Asset];
`;

/**
 * A small Node.js chaincode for Fabric (what runs there without a connected Fabric network, docs/decisions/052),
 * zipped in the test (no binary fixture is committed); `extra` adds more files.
 */
export function chaincodeZip(extra: Record<string, Uint8Array> = {}, options: { level?: 0 } = {}) {
  const manifest = JSON.stringify({
    name: "asset",
    main: "asset/index.js",
    dependencies: { "fabric-contract-api": "2.5.8" },
  });
  return Buffer.from(
    zipSync({ "asset/index.js": strToU8(MAIN_JS), "package.json": strToU8(manifest), ...extra }, options),
  );
}

/** A real PNG: uploads are checked by their bytes (docs/decisions/023). */
export const PNG = tinyPng();

export async function logInAs(page: Page, userName: string, _js: boolean) {
  await signInOverHttp(page, userName, PASSWORD);
  await expect(page).toHaveURL(/\/g\/home\/index$/);
}

/** Complete basic information for a new service named after the user. */
export function basicInfo(userName: string, prefix = "Svc") {
  return {
    name: `${prefix} ${userName}`,
    industry: "other",
    description: "d",
    introduction: "i",
    version: "1.0.0",
    framework: "fabric",
    platformType: "web",
    contactName: "Li",
    contactMobile: "+8613912345678",
    contactEmail: "li@example.com",
    webUrl: "https://x.example.com",
    paymentCycle: "1",
  };
}

/**
 * The wizard's /vueapi paths called as this user (logged in through the protocol), each expected to
 * succeed; `token` is the login's, for other paths; `upload` streams a file to /vueapi/upload/<kind>
 * and answers the reference a wizard call names it by (docs/decisions/023).
 */
export async function wizardApi(request: APIRequestContext, userName: string) {
  const captcha = await (await request.post("/vueapi/anon/captcha/create", { data: {} })).json();
  const login = await (
    await request.post("/vueapi/main/user/login", {
      data: { username: userName, password: PASSWORD, captchaKey: captcha.data.captchaKey, captcha: CAPTCHA },
    })
  ).json();
  const token: string = login.data.token;
  const headers = { Authorization: `Bearer ${token}` };
  const call = async (p: string, data: object) => {
    const res = await (await request.post(`/vueapi/sys/chainAppInfo/wizard/${p}`, { data, headers })).json();
    expect(res.code, JSON.stringify(res)).toBe(0);
    return res.data;
  };
  const upload = async (kind: "cover" | "chaincode" | "attachment", name: string, bytes: Buffer) => {
    const res = await (
      await request.post(`/vueapi/upload/${kind}`, {
        data: bytes,
        headers: { ...headers, "Content-Type": "application/octet-stream", "X-File-Name": encodeURIComponent(name) },
      })
    ).json();
    expect(res.code, JSON.stringify(res)).toBe(0);
    return { uploadId: res.data.uploadId as string };
  };
  return Object.assign(call, { token, upload });
}
