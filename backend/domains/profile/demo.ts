import type { DemoSeeder } from "#backend/kit/domain.ts";
import { eq } from "drizzle-orm";

import { contacts } from "./tables.ts";
import { users } from "#backend/db/tables.ts";

/** Demo profile details and contacts (backend/seed.ts). */
export const seedDemoProfiles: DemoSeeder = async ({ db }, created, now) => {
  const company = created.democompany;
  if (company) {
    await db
      .update(users)
      .set({
        selfIntroduction: "We build supply-chain traceability services on consortium chains.",
        termOfBusiness: 2,
        staffCount: 2,
        businessInformation: "Registered in Haidian District, Beijing; software and information technology services.",
        mainBusiness: "Blockchain software development",
        companyProfile:
          "Demo Chain Technology designs and operates consortium-chain services for logistics and finance partners.",
        companyUrl: "https://demo-chain.example.com",
        fax: "+86 10 8888 0000",
      })
      .where(eq(users.id, company));
    await db.insert(contacts).values([
      {
        userId: company,
        name: "Li Wei",
        mobile: "+8613900000011",
        email: "li.wei@demo-chain.example.com",
        department: "Operations",
        createdAt: now,
      },
      {
        userId: company,
        name: "Zhang Min",
        mobile: "+8613900000012",
        email: "zhang.min@demo-chain.example.com",
        department: "Finance",
        createdAt: now,
      },
    ]);
  }
  const person = created.demoperson;
  if (person) {
    await db
      .update(users)
      .set({ country: "China", selfIntroduction: "Independent developer of chaincode for small businesses." })
      .where(eq(users.id, person));
  }
};
