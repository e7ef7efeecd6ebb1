import { describe, expect, inject, it } from "vitest";
import {
  activationToken,
  activeUser,
  call,
  captcha,
  login,
  mailsTo,
  PASSWORD,
  register,
  uniqueName,
  upload,
} from "./client.ts";

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);
const enterprise = {
  userType: "2",
  companyName: "Example Ltd",
  companyAddress: "1 Road",
  contactName: "Zhang",
  country: "China",
  creditCode: "91110000MA01ABCDEX",
};

describe("captcha (SPEC §8 Login)", () => {
  it("is a PNG image with a key", async () => {
    const res = await call("/anon/captcha/create");
    expect(res.data.image).toMatch(/^data:image\/png;base64,/);
    expect(res.data.expiresInSeconds).toBe(300);
  });

  it("refuses an empty, unknown, wrong and reused captcha", async () => {
    const base = { username: "demoperson", password: "Demo12!@pass" };
    const empty = await call("/main/user/login", { ...base, captchaKey: await captcha(), captcha: " " });
    expect(empty.data.fieldErrors).toMatchObject({ captcha: ["errors:MSG_20002"] });
    expect(
      (await call("/main/user/login", { ...base, captchaKey: "00000000-0000-0000-0000-000000000000", captcha: "abcd" }))
        .message,
    ).toBe("MSG_20005");
    const wrong = await call("/main/user/login", { ...base, captchaKey: await captcha(), captcha: "zzzz" });
    expect(wrong).toMatchObject({
      code: 1,
      message: "MSG_20004",
      data: { fieldErrors: { captcha: ["errors:MSG_20004"] } },
    });
    const key = await captcha();
    expect((await call("/main/user/login", { ...base, captchaKey: key, captcha: inject("testCaptcha") })).code).toBe(0);
    expect((await call("/main/user/login", { ...base, captchaKey: key, captcha: inject("testCaptcha") })).message).toBe(
      "MSG_20005",
    );
  });
});

describe("registration (SPEC §5)", () => {
  it("registers an individual and mails the activation link", async () => {
    const userName = uniqueName("ind");
    const res = await register(userName);
    expect(res).toMatchObject({ code: 0, data: { userName, email: `${userName}@example.com` } });
    expect(activationToken(`${userName}@example.com`)).toMatch(/^[A-Za-z0-9_-]{30,}$/);
  });

  it("registers a person whose name is written in Latin letters, kept in NFC (docs/decisions/056)", async () => {
    const userName = uniqueName("lat");
    const res = await register(userName, { realName: "Jose\u0301 O'Neill-Smith" });
    expect(res.code, JSON.stringify(res)).toBe(0);
    expect((await call("/anon/user/activate", { token: activationToken(`${userName}@example.com`) })).code).toBe(0);
    const { data } = await login(userName);
    const profile = await call("/sys/system/clientInfo/profile", {}, data.token);
    expect(profile.data.realName).toBe("José O'Neill-Smith");
  });

  it("registers an enterprise with its licence", async () => {
    const userName = uniqueName("ent");
    // The licence is uploaded first, before the account exists (docs/decisions/023), then named by its id.
    const licence = await upload("licence", "licence.png", PNG);
    expect(licence.code, JSON.stringify(licence)).toBe(0);
    const res = await register(userName, enterprise, { uploadId: licence.data.uploadId });
    expect(res.code, JSON.stringify(res)).toBe(0);
    // It is used: another registration cannot name it again.
    const again = await register(uniqueName("ent"), enterprise, { uploadId: licence.data.uploadId });
    expect(again.data.fieldErrors).toMatchObject({ licence: ["errors:MSG_20022"] });
  });

  it("checks every field rule on the server, whatever the portal did", async () => {
    const res = await register(uniqueName("bad"), {
      userName: "1x",
      password: "abc",
      confirmPassword: "abd",
      realName: "张Wei",
      email: "nope",
      mobile: "12ab",
      agreeTerms: undefined,
      agreePrivacy: "no",
    });
    expect(res.message).toBe("MSG_10001");
    expect(res.data.fieldErrors).toMatchObject({
      "payload.userName": ["validation.username.format"],
      "payload.password": ["validation.password.length"],
      "payload.realName": ["validation.realName.format"],
      "payload.email": ["validation.email.format"],
      "payload.mobile": ["validation.mobile.format"],
      "payload.agreeTerms": ["validation.agreeTerms"],
      "payload.agreePrivacy": ["validation.agreePrivacy"],
    });
  });

  it("checks password classes and the confirmation", async () => {
    const classes = await register(uniqueName("pw"), { password: "Abcdefg1!", confirmPassword: "Abcdefg1!" });
    expect(classes.data.fieldErrors["payload.password"]).toEqual(["validation.password.classes"]);
    const mismatch = await register(uniqueName("pw"), { confirmPassword: "Gd47!@kx" });
    expect(mismatch.data.fieldErrors["payload.confirmPassword"]).toEqual(["validation.confirmMismatch"]);
  });

  it("checks the enterprise fields and the licence", async () => {
    const missing = await register(uniqueName("ent"), { userType: "2", creditCode: "1234567" });
    expect(missing.data.fieldErrors).toMatchObject({
      "payload.companyName": ["validation.required"],
      "payload.companyAddress": ["validation.required"],
      "payload.contactName": ["validation.required"],
      "payload.country": ["validation.required"],
      "payload.creditCode": ["validation.creditCode.format"],
    });
    const noLicence = await register(uniqueName("ent"), enterprise);
    expect(noLicence.data.fieldErrors).toMatchObject({ licence: ["validation.licence.required"] });
    // The licence's own checks happen at its upload: by its bytes, and by its size while it arrives.
    const exe = Buffer.from("MZ\x90\x00 not an image");
    const wrongType = await upload("licence", "licence.png", exe);
    expect(wrongType).toMatchObject({
      message: "MSG_20021",
      data: { fieldErrors: { file: ["validation.licence.type"] } },
    });
    const big = Buffer.concat([PNG, Buffer.alloc(8 * 1024 * 1024)]);
    const tooBig = await upload("licence", "licence.png", big);
    expect(tooBig).toMatchObject({
      message: "MSG_20020",
      data: { fieldErrors: { file: ["validation.licence.tooLarge"] } },
    });
    expect((await upload("licence", "licence.exe", PNG)).data.fieldErrors).toEqual({
      file: ["validation.licence.type"],
    });
    const unknown = await register(uniqueName("ent"), enterprise, { uploadId: "u".repeat(43) });
    expect(unknown.data.fieldErrors).toMatchObject({ licence: ["errors:MSG_20022"] });
  });

  it("refuses a taken username and email, in any case", async () => {
    const userName = uniqueName("dup");
    expect((await register(userName)).code).toBe(0);
    const again = await register(userName.toUpperCase(), { email: `${userName}@example.com`.toUpperCase() });
    expect(again).toMatchObject({ code: 1, message: "MSG_20009" });
    expect(again.data.fieldErrors).toMatchObject({
      "payload.userName": ["errors:MSG_20009"],
      "payload.email": ["errors:MSG_20010"],
    });
  });
});

describe("activation", () => {
  it("activates once; a wrong or used token is refused", async () => {
    const userName = uniqueName("atv");
    await register(userName);
    expect((await login(userName)).message).toBe("MSG_20008");
    const token = activationToken(`${userName}@example.com`);
    expect((await call("/anon/user/activate", { token: "wrong-token" })).message).toBe("MSG_20011");
    expect(await call("/anon/user/activate", { token })).toMatchObject({ code: 0, data: { userName } });
    expect((await call("/anon/user/activate", { token })).message).toBe("MSG_20012");
    const res = await login(userName);
    expect(res.code).toBe(0);
    const list = await call("/sys/system/message/list", { page: { pageSize: 10, pageIndex: 1 } }, res.data.token);
    expect(list.data.page.rows[0]).toMatchObject({ textKey: "messages.welcome", params: { userName }, status: 0 });
  });
});

describe("login (SPEC §8 Login)", () => {
  it("logs in by username or email; an unknown name and a wrong password get the one same answer (Hardening 12)", async () => {
    const user = await activeUser("lgn");
    expect((await login(user.email.toUpperCase())).code).toBe(0);
    const unknown = await login("nosuchuser123");
    const wrong = await login(user.userName, "Wrong12!@x");
    expect(unknown).toEqual({ code: 1, message: "MSG_20006", data: null });
    expect(wrong).toEqual(unknown);
  });

  it("locks the account after 5 failures for 15 minutes", async () => {
    const user = await activeUser("lck");
    for (let i = 0; i < 4; i++) expect((await login(user.userName, "Wrong12!@x")).message).toBe("MSG_20006");
    expect((await login(user.userName, "Wrong12!@x")).message).toBe("MSG_20007");
    expect((await login(user.userName)).message).toBe("MSG_20007");
  });

  it("logs the demo accounts in", async () => {
    for (const [name, role, type] of [
      ["demoperson", "user", 1],
      ["democompany", "user", 2],
      ["demooperator", "operator", 1],
    ] as const) {
      const res = await login(name, "Demo12!@pass");
      expect(res.code, name).toBe(0);
      expect(res.data.user).toMatchObject({ userName: name, role, userType: type });
    }
  });
});

describe("forgotten password", () => {
  it("mails a code, counts wrong attempts, resets the password and ends other sessions", async () => {
    const user = await activeUser("fgt");
    const sent = await call("/anon/password/sendResetCode", {
      phone: user.userName,
      retrieveWay: "email",
      captchaKey: await captcha(),
      captcha: inject("testCaptcha"),
    });
    expect(sent).toMatchObject({ code: 0, data: { phone: user.userName } });
    expect(sent.data.maskedEmail).toMatch(/^f\*\*\*@example\.com$/);
    const code = mailsTo(user.email)
      .at(-1)!
      .text.match(/\b(\d{6})\b/)![1];
    const wrong = code === "000000" ? "111111" : "000000";
    expect(
      (await call("/anon/password/checkResetCode", { phone: user.userName, retrieveWay: "email", captcha: wrong }))
        .message,
    ).toBe("MSG_20013");
    expect(
      (await call("/anon/password/checkResetCode", { phone: user.userName, retrieveWay: "email", captcha: code })).code,
    ).toBe(0);
    const bad = await call("/main/updateEmailPassword", {
      phone: user.userName,
      retrieveWay: "email",
      captcha: code,
      password: "short",
      confirmPassword: "short",
    });
    expect(bad.data.fieldErrors).toMatchObject({ password: ["validation.password.length"] });
    const done = await call("/main/updateEmailPassword", {
      phone: user.userName,
      retrieveWay: "email",
      captcha: code,
      password: "Nw93!@pq",
      confirmPassword: "Nw93!@pq",
    });
    expect(done.code).toBe(0);
    expect(await call("/main/getClientInfo", {}, user.token)).toMatchObject({ code: 3, message: "MSG_10009" });
    expect((await login(user.userName)).message).toBe("MSG_20006");
    expect((await login(user.userName, "Nw93!@pq")).code).toBe(0);
    // The code is used up.
    expect(
      (await call("/anon/password/checkResetCode", { phone: user.userName, retrieveWay: "email", captcha: code }))
        .message,
    ).toBe("MSG_20013");
  });

  it("kills the code after 5 wrong attempts, and refuses unknown accounts", async () => {
    const user = await activeUser("fg5");
    await call("/anon/password/sendResetCode", {
      phone: user.email,
      retrieveWay: "email",
      captchaKey: await captcha(),
      captcha: inject("testCaptcha"),
    });
    const code = mailsTo(user.email)
      .at(-1)!
      .text.match(/\b(\d{6})\b/)![1];
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < 5; i++)
      await call("/anon/password/checkResetCode", { phone: user.userName, retrieveWay: "email", captcha: wrong });
    expect(
      (await call("/anon/password/checkResetCode", { phone: user.userName, retrieveWay: "email", captcha: code }))
        .message,
    ).toBe("MSG_20013");
    const unknown = await call("/anon/password/sendResetCode", {
      phone: "nobody99999",
      retrieveWay: "email",
      captchaKey: await captcha(),
      captcha: inject("testCaptcha"),
    });
    expect(unknown.message).toBe("MSG_20001");
  });
});

describe("change password (SPEC §5)", () => {
  it("applies every rule and keeps only the current session", async () => {
    const user = await activeUser("chg");
    const other = (await login(user.userName)).data.token;
    const change = (body: object) => call("/main/updatePassword", body, user.token);
    expect((await change({})).data.fieldErrors).toMatchObject({
      oldPassword: ["validation.required"],
      password: ["validation.required"],
    });
    expect(
      (await change({ oldPassword: PASSWORD, password: PASSWORD, confirmPassword: PASSWORD })).data.fieldErrors
        .password,
    ).toContain("validation.password.sameAsOld");
    const withName = `${user.userName}1!@`;
    expect(withName.length).toBeLessThanOrEqual(20);
    expect(
      (await change({ oldPassword: PASSWORD, password: withName, confirmPassword: withName })).data.fieldErrors
        .password,
    ).toContain("validation.password.containsUsername");
    expect(
      (await change({ oldPassword: PASSWORD, password: "Zx1234!@", confirmPassword: "Zx1234!@" })).data.fieldErrors
        .password,
    ).toContain("validation.password.sequence");
    expect(
      (await change({ oldPassword: PASSWORD, password: "Admin@123", confirmPassword: "Admin@123" })).data.fieldErrors
        .password,
    ).toBeDefined();
    expect(
      (await change({ oldPassword: PASSWORD, password: "Nw93!@pq", confirmPassword: "Nw93!@pz" })).data.fieldErrors
        .confirmPassword,
    ).toEqual(["validation.confirmMismatch"]);
    expect(
      await change({ oldPassword: "Wrong12!@x", password: "Nw93!@pq", confirmPassword: "Nw93!@pq" }),
    ).toMatchObject({ message: "MSG_20015", data: { fieldErrors: { oldPassword: ["errors:MSG_20015"] } } });
    expect((await change({ oldPassword: PASSWORD, password: "Nw93!@pq", confirmPassword: "Nw93!@pq" })).code).toBe(0);
    expect((await call("/main/getClientInfo", {}, user.token)).code).toBe(0);
    expect(await call("/main/getClientInfo", {}, other)).toMatchObject({ code: 3, message: "MSG_10009" });
    expect((await login(user.userName, "Nw93!@pq")).code).toBe(0);
  });
});

describe("messages", () => {
  it("shows and marks only the caller's own messages", async () => {
    const a = await activeUser("msa");
    const b = await activeUser("msb");
    const listA = await call("/sys/system/message/list", { page: { pageSize: 10, pageIndex: 1 } }, a.token);
    expect(listA.data.unread).toBe(1);
    const idA = listA.data.page.rows[0].messageId;
    // b cannot mark a's message.
    expect((await call("/sys/system/message/read", { messageIds: [idA] }, b.token)).data.unread).toBe(1);
    expect(
      (await call("/sys/system/message/list", { page: { pageSize: 10, pageIndex: 1 } }, a.token)).data.unread,
    ).toBe(1);
    expect((await call("/sys/system/message/read", { messageIds: [idA] }, a.token)).data.unread).toBe(0);
    const read = await call(
      "/sys/system/message/list",
      { page: { pageSize: 10, pageIndex: 1, condition: { status: 1 } } },
      a.token,
    );
    expect(read.data.page.rows.map((m: { messageId: number }) => m.messageId)).toEqual([idA]);
    expect((await call("/sys/system/message/read", { all: true }, b.token)).data.unread).toBe(0);
    const summary = await call("/main/home/summary", {}, b.token);
    expect(summary.data).toMatchObject({ unreadMessages: 0 });
    expect(summary.data.cityNodes).toBeGreaterThanOrEqual(8);
  });
});
