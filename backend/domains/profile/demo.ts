import type { DemoSeeder } from "#backend/kit/domain.ts";

import { contacts } from "./tables.ts";
import accounts from "#backend/domains/accounts/index.ts";

/** Demo profile details and contacts (backend/seed.ts). */
export const seedDemoProfiles: DemoSeeder = async ({ db }, created, now) => {
  const company = created.democompany;
  if (company) {
    await accounts.api.saveProfileDetails(db, company, {
      selfIntroduction: "We build supply-chain traceability services on consortium chains.",
      termOfBusiness: 2,
      staffCount: 2,
      businessInformation: "Registered in Haidian District, Beijing; software and information technology services.",
      mainBusiness: "Blockchain software development",
      companyProfile:
        "Demo Chain Technology designs and operates consortium-chain services for logistics and finance partners.",
      companyUrl: "https://demo-chain.example.com",
      fax: "+86 10 8888 0000",
    });
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
    await accounts.api.saveProfileDetails(db, person, {
      country: "China",
      selfIntroduction: "Independent developer of chaincode for small businesses.",
    });
  }
};
