import { describe, expect, it } from "vitest";
import { activeUser, call, login } from "./client.ts";

const enterpriseProfile = {
  country: "China",
  selfIntroduction: "We run services.",
  termOfBusiness: "2",
  staffCount: "3",
  companyProfile: "A company.",
  companyAddress: "1 Road",
  contactName: "Wang",
  companyUrl: "https://example.com",
  fax: "+86 10 1234 5678",
};

describe("SPEC §3/§5 Profile", () => {
  it("an individual updates country and self-introduction; both are required; email cannot be changed here", async () => {
    const { token, email } = await activeUser("prof");
    const empty = await call("/sys/system/clientInfo/updateProfile", { country: " ", selfIntroduction: "" }, token);
    expect(empty.message).toBe("MSG_10001");
    expect(empty.data.fieldErrors).toEqual({
      country: ["validation.required"],
      selfIntroduction: ["validation.required"],
    });
    const saved = await call(
      "/sys/system/clientInfo/updateProfile",
      { country: "Singapore", selfIntroduction: "Hello", email: "other@example.com" },
      token,
    );
    expect(saved.code, JSON.stringify(saved)).toBe(0);
    expect(saved.data).toMatchObject({ country: "Singapore", selfIntroduction: "Hello", email, userType: 1 });
    expect((await call("/sys/system/clientInfo/profile", {}, token)).data.country).toBe("Singapore");
  });

  it("an enterprise must give its company profile, detailed address and contact name", async () => {
    const res = await login("democompany", "Demo12!@pass");
    const token = res.data.token;
    const bad = await call(
      "/sys/system/clientInfo/updateProfile",
      {
        ...enterpriseProfile,
        companyProfile: "",
        contactName: "",
        companyAddress: "",
        companyUrl: "ftp://x",
        fax: "abc",
        staffCount: "9",
      },
      token,
    );
    expect(bad.message).toBe("MSG_10001");
    expect(Object.keys(bad.data.fieldErrors).sort()).toEqual([
      "companyAddress",
      "companyProfile",
      "companyUrl",
      "contactName",
      "fax",
      "staffCount",
    ]);
    const good = await call("/sys/system/clientInfo/updateProfile", enterpriseProfile, token);
    expect(good.code, JSON.stringify(good)).toBe(0);
    expect(good.data).toMatchObject({
      termOfBusiness: "2",
      staffCount: "3",
      companyUrl: "https://example.com",
      userType: 2,
    });
  });

  it("needs a login", async () => {
    expect((await call("/sys/system/clientInfo/profile", {})).code).toBe(3);
  });
});

describe("SPEC §5 Contacts", () => {
  const contact = { name: "Li Lei", mobile: "+8613912345678", email: "li@example.com", department: "Ops" };

  it("checks every field and keeps each user's contacts to themselves", async () => {
    const alice = await activeUser("cta");
    const bob = await activeUser("ctb");
    const bad = await call(
      "/sys/system/clientInfo/insertContactList",
      { name: "", mobile: "12ab", email: "nope", department: "" },
      alice.token,
    );
    expect(bad.message).toBe("MSG_10001");
    expect(bad.data.fieldErrors).toEqual({
      name: ["validation.required"],
      mobile: ["validation.mobile.format"],
      email: ["validation.email.format"],
      department: ["validation.required"],
    });
    const added = await call("/sys/system/clientInfo/insertContactList", contact, alice.token);
    expect(added.code).toBe(0);
    const id = added.data.contactId;

    // Bob can neither read, change nor delete Alice's contact, and does not see it listed.
    expect((await call("/sys/system/clientInfo/contactDetail", { contactId: id }, bob.token)).message).toBe(
      "MSG_10002",
    );
    expect(
      (await call("/sys/system/clientInfo/insertContactList", { ...contact, name: "Hacked", contactId: id }, bob.token))
        .message,
    ).toBe("MSG_10002");
    expect((await call("/sys/system/clientInfo/deleteContact", { contactId: id }, bob.token)).message).toBe(
      "MSG_10002",
    );
    expect((await call("/sys/system/clientInfo/contactList", {}, bob.token)).data.page.total).toBe(0);

    const updated = await call(
      "/sys/system/clientInfo/insertContactList",
      { ...contact, name: "Li Lei Jr", contactId: id },
      alice.token,
    );
    expect(updated.data).toMatchObject({ contactId: id, name: "Li Lei Jr" });
    const list = await call(
      "/sys/system/clientInfo/contactList",
      { page: { pageSize: 10, pageIndex: 1 } },
      alice.token,
    );
    expect(list.data.page.rows.map((c: { name: string }) => c.name)).toEqual(["Li Lei Jr"]);
    expect((await call("/sys/system/clientInfo/deleteContact", { contactId: id }, alice.token)).code).toBe(0);
    expect((await call("/sys/system/clientInfo/contactList", {}, alice.token)).data.page.total).toBe(0);
  });

  it("keeps at most 50 contacts, also when they are added at once", async () => {
    const { token } = await activeUser("ctl");
    const results = await Promise.all(
      Array.from({ length: 55 }, (_, i) =>
        call("/sys/system/clientInfo/insertContactList", { ...contact, name: `C${i}` }, token),
      ),
    );
    expect(results.filter((r) => r.code === 0)).toHaveLength(50);
    expect(results.filter((r) => r.message === "MSG_35001")).toHaveLength(5);
    expect((await call("/sys/system/clientInfo/contactList", {}, token)).data.page.total).toBe(50);
  });
});
