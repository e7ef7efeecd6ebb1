import services from "#backend/domains/services/index.ts";
import type { DemoSeeder } from "#backend/kit/domain.ts";
import { deflateSync } from "node:zlib";
import { and, asc, eq, isNull } from "drizzle-orm";
import { VerState } from "#contract/service-status.ts";

import { appJoins } from "#backend/domains/participation/tables.ts";
import { appRatings, commentUseful, follows, products } from "./tables.ts";
import participation from "#backend/domains/participation/index.ts";
import { appComments, appRoles, apps, appVersions } from "#backend/domains/services/tables.ts";

const HOUR = 60 * 60 * 1000;

function crc32(bytes: Buffer) {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}
function chunk(type: string, data: Buffer) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
/** A small cover: a 160x160 PNG (§3 suggested size) with a diagonal two-colour pattern. */
export function demoCover(a: [number, number, number], b: [number, number, number]): Buffer {
  const size = 160;
  const raw = Buffer.alloc((size * 3 + 1) * size);
  for (let y = 0; y < size; y++) {
    raw[y * (size * 3 + 1)] = 0;
    for (let x = 0; x < size; x++) {
      const [r, g, bl] = (x + y) % 40 < 20 ? a : b;
      const o = y * (size * 3 + 1) + 1 + x * 3;
      raw[o] = r;
      raw[o + 1] = g;
      raw[o + 2] = bl;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(raw)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/**
 * Demo app store (backend/seed.ts, after the services seeder): democompany's running service is
 * made public, demoperson participates in it (audit 15), rates it and follows it; listed products (one a
 * company product of democompany), one waiting for approval; demoperson follows some.
 */
export const seedDemoStore: DemoSeeder = async ({ db, files }, created, now) => {
  const company = created.democompany;
  const person = created.demoperson;
  if (!company || !person) return;
  const at = (hoursAgo: number) => new Date(now.getTime() - hoursAgo * HOUR);
  await db.transaction(async (tx) => {
    const [app] = await tx
      .select({ app: apps, verState: appVersions.verState })
      .from(apps)
      .innerJoin(appVersions, eq(appVersions.id, apps.currentVerId))
      .where(and(eq(apps.userId, company), eq(appVersions.verState, VerState.RUNNING)))
      .orderBy(asc(apps.id))
      .limit(1);
    if (app) {
      const appId = app.app.id;
      let coverFileId = app.app.coverFileId;
      if (!coverFileId) {
        const bytes = demoCover([14, 116, 144], [186, 230, 253]);
        ({ id: coverFileId } = await files.put(tx, {
          name: "cold-chain.png",
          mime: "image/png",
          bytes,
          createdAt: at(240),
        }));
      }
      await services.api.setServicePublic(tx, appId, true, { coverFileId });
      // The services seeder wrote a comment counted useful once: its one mark (docs/decisions/014).
      const marked = await tx
        .select({ id: appComments.id })
        .from(appComments)
        .leftJoin(commentUseful, eq(commentUseful.commentId, appComments.id))
        .where(and(eq(appComments.appId, appId), eq(appComments.usefulCount, 1), isNull(commentUseful.commentId)));
      for (const { id } of marked)
        await tx.insert(commentUseful).values({ commentId: id, userId: company, createdAt: at(90) });
      const [joined] = await tx
        .select({ id: appJoins.id })
        .from(appJoins)
        .where(and(eq(appJoins.appId, appId), eq(appJoins.userId, person)));
      if (!joined) {
        const [role] = await tx
          .select()
          .from(appRoles)
          .where(eq(appRoles.verId, app.app.currentVerId!))
          .orderBy(asc(appRoles.id))
          .limit(1);
        if (role) {
          await participation.api.placeJoin(tx, {
            appId,
            verId: app.app.currentVerId!,
            userId: person,
            roleId: role.id,
            auditState: 15,
            certificateMode: 1,
            createdAt: at(150),
            updatedAt: at(140),
          });
        }
      }
      await tx
        .insert(appRatings)
        .values({ appId, userId: person, score: 4, createdAt: at(90) })
        .onConflictDoNothing();
      const followers = [person, created.demooperator].filter((id): id is number => !!id);
      await tx
        .insert(follows)
        .values(followers.map((userId) => ({ userId, targetKind: "app", targetId: appId, createdAt: at(80) })))
        .onConflictDoNothing();
    }
    const covers = [
      demoCover([22, 101, 52], [187, 247, 208]),
      demoCover([124, 58, 237], [221, 214, 254]),
      demoCover([180, 83, 9], [254, 215, 170]),
    ];
    const coverIds: number[] = [];
    for (const [i, bytes] of covers.entries()) {
      const f = await files.put(tx, { name: `product-${i + 1}.png`, mime: "image/png", bytes, createdAt: at(300) });
      coverIds.push(f.id);
    }
    const rows = await tx
      .insert(products)
      .values([
        {
          userId: company,
          name: "Supply-chain traceability kit",
          productType: 1,
          coverFileId: coverIds[0],
          company: true,
          brief: "A ready consortium-chain service that traces goods from factory to shelf.",
          description:
            "Chaincode, roles and dashboards for recording every hand-over of a batch of goods. Suppliers, carriers and retailers each write their own steps; auditors read the full history.",
          suggestedPriceCents: 120_000,
          payMode: 1,
          status: 2,
          listedAt: at(120),
          reviewedBy: created.demooperator ?? null,
          reviewedAt: at(120),
          createdAt: at(150),
          updatedAt: at(120),
        },
        {
          userId: company,
          name: "Contract audit template",
          productType: 3,
          coverFileId: coverIds[1],
          brief: "Smart-contract template that records audit findings and their fixes.",
          description:
            "A template of functions and roles for audit teams: findings, severity, fixes and sign-off, each recorded on chain.",
          suggestedPriceCents: 9_900,
          payMode: 2,
          status: 2,
          listedAt: at(60),
          reviewedBy: created.demooperator ?? null,
          reviewedAt: at(60),
          createdAt: at(70),
          updatedAt: at(60),
        },
        {
          userId: person,
          name: "Notarisation mini-program",
          productType: 2,
          coverFileId: coverIds[2],
          brief: "Stamp documents on chain and share a verification link.",
          description:
            "Users upload a document digest, the service records it with a timestamp and gives a link anyone can use to verify it.",
          suggestedPriceCents: 30_000,
          payMode: 3,
          status: 2,
          listedAt: at(30),
          reviewedBy: created.demooperator ?? null,
          reviewedAt: at(30),
          createdAt: at(40),
          updatedAt: at(30),
        },
        {
          userId: person,
          name: "Carbon credit ledger",
          productType: 1,
          brief: "Issue and retire carbon credits between partners.",
          description:
            "A ledger of carbon credits: issuers mint, holders transfer and retire them; every step is auditable.",
          suggestedPriceCents: 50_000,
          payMode: 3,
          status: 1,
          createdAt: at(5),
          updatedAt: at(4),
        },
      ])
      .returning({ id: products.id });
    await tx
      .insert(follows)
      .values(
        [rows[0], rows[1]].map((r) => ({ userId: person, targetKind: "product", targetId: r.id, createdAt: at(20) })),
      )
      .onConflictDoNothing();
  });
};
