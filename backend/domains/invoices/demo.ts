import type { DemoSeeder } from "#backend/kit/domain.ts";
import { invoiceTitles, receiverAddresses } from "./tables.ts";

/** Demo invoice titles and receiving addresses for the demo accounts (nothing touches the ledger). */
export const seedInvoiceDemo: DemoSeeder = async ({ db }, users, now) => {
  const person = users.demoperson;
  const company = users.democompany;
  if (person) {
    await db
      .insert(invoiceTitles)
      .values({ userId: person, titleType: 1, title: "Demo Person", isDefault: true, createdAt: now });
    await db.insert(receiverAddresses).values({
      userId: person,
      name: "Demo Person",
      mobile: "13800000001",
      location: "Beijing, China",
      address: "1 Demo Road, Haidian District",
      postalCode: "100080",
      email: "demoperson@example.com",
      isDefault: true,
      createdAt: now,
    });
  }
  if (company) {
    await db.insert(invoiceTitles).values({
      userId: company,
      titleType: 2,
      title: "Demo Company Ltd.",
      taxNo: "91110108MA01ABCD1X",
      bank: "Demo Bank Beijing Branch",
      bankAccount: "6222020200112233445",
      registeredAddress: "88 Demo Avenue, Chaoyang District, Beijing",
      registeredPhone: "010-12345678",
      isDefault: true,
      createdAt: now,
    });
    await db.insert(receiverAddresses).values({
      userId: company,
      name: "Finance Office",
      mobile: "13900000002",
      location: "Beijing, China",
      address: "88 Demo Avenue, Chaoyang District",
      postalCode: "100020",
      email: "finance@democompany.example.com",
      isDefault: true,
      createdAt: now,
    });
  }
};
