import { count } from "drizzle-orm";
import { NEWS_SEARCH_KIND } from "#contract/community-codes.ts";
import type { DemoSeeder } from "#backend/kit/domain.ts";
import { indexItem } from "#backend/kit/search.ts";
import { communityPartners, communityPosts } from "./tables.ts";

const DAY = 86_400_000;

/**
 * Demo content (DEMO=1; docs/decisions/040): bilingual news (one only in English, to show the visible
 * fallback), an event with seats, release notes, partners and a PAST announcement: an active one would put its
 * banner on every page of the benchmark (npm run bench).
 */
export const seedDemoCommunity: DemoSeeder = async ({ db }, _users, now) => {
  const [{ n }] = await db.select({ n: count() }).from(communityPosts);
  if (n > 0) return;
  const at = (days: number) => new Date(now.getTime() + days * DAY);
  const posts: Omit<typeof communityPosts.$inferInsert, "createdAt" | "updatedAt">[] = [
    {
      kind: "news",
      titleEn: "City node gateways now serve IPFS downloads",
      titleZh: "城市节点网关现已提供 IPFS 下载",
      bodyEn:
        "Every city node now runs an **IPFS gateway**. Choose the gateways of your storage service in the console and share the download key with your users.\n\n- metered per gateway and day\n- billed weekly",
      bodyZh:
        "每个城市节点现已运行 **IPFS 网关**。请在控制台中为您的存储服务选择网关，并把下载密钥分享给您的用户。\n\n- 按网关和日计量\n- 每周结算",
      published: true,
      publishedAt: at(-10),
    },
    {
      kind: "news",
      titleEn: "Consortium chain services: faster reviews",
      titleZh: "联盟链服务：审核更快",
      bodyEn: "Operators now review new consortium chain services within one working day.",
      bodyZh: "运营人员现在会在一个工作日内审核新的联盟链服务。",
      published: true,
      publishedAt: at(-5),
    },
    {
      kind: "news",
      titleEn: "Maintenance window for the test network",
      titleZh: "",
      bodyEn: "The shared test network is reset on the first Sunday of each month between 02:00 and 04:00 (UTC+8).",
      bodyZh: "",
      published: true,
      publishedAt: at(-2),
    },
    {
      kind: "event",
      titleEn: "Developer meetup: building on the service network",
      titleZh: "开发者沙龙：基于服务网络构建应用",
      bodyEn:
        "An afternoon of talks and a workshop: publish a consortium chain service and call it from your own tools.",
      bodyZh: "一个下午的演讲与实操：发布联盟链服务，并用您自己的工具调用它。",
      published: true,
      publishedAt: at(-1),
      startsAt: at(21),
      location: "Beijing · 北京",
      capacity: 30,
      signupDeadline: at(19),
    },
    {
      kind: "release",
      titleEn: "Portal 2.3",
      titleZh: "门户 2.3",
      bodyEn: "- IPFS storage with city node gateways\n- Test services on the shared test network",
      bodyZh: "- 支持城市节点网关的 IPFS 存储\n- 共享测试网络上的测试服务",
      version: "2.3.0",
      published: true,
      publishedAt: at(-30),
    },
    {
      kind: "release",
      titleEn: "Portal 2.4",
      titleZh: "门户 2.4",
      bodyEn: "- The developer community: news, events and release notes\n- RSS and Atom feeds",
      bodyZh: "- 开发者社区：新闻、活动与发布说明\n- RSS 与 Atom 订阅源",
      version: "2.4.0",
      published: true,
      publishedAt: at(-3),
    },
    {
      kind: "announcement",
      titleEn: "Scheduled maintenance completed",
      titleZh: "计划维护已完成",
      bodyEn: "The scheduled maintenance of the payment gateway has been completed.",
      bodyZh: "支付网关的计划维护已完成。",
      published: true,
      publishedAt: at(-15),
      activeFrom: at(-15),
      activeTo: at(-14),
    },
  ];
  await db.transaction(async (tx) => {
    for (const p of posts) {
      const [row] = await tx
        .insert(communityPosts)
        .values({ ...p, createdAt: p.publishedAt ?? now, updatedAt: p.publishedAt ?? now })
        .returning();
      if (row.kind === "news" || row.kind === "event") {
        await indexItem(tx, {
          kind: NEWS_SEARCH_KIND,
          itemId: row.id,
          lang: "en",
          title: row.titleEn,
          body: row.bodyEn,
        });
        await indexItem(tx, {
          kind: NEWS_SEARCH_KIND,
          itemId: row.id,
          lang: "zh-CN",
          title: row.titleZh,
          body: row.bodyZh,
        });
      }
    }
    await tx.insert(communityPartners).values([
      {
        nameEn: "Open Ledger Lab",
        nameZh: "开放账本实验室",
        descriptionEn: "Research on permissioned ledgers.",
        descriptionZh: "许可账本研究。",
        link: "https://example.org/",
        sortOrder: 10,
        createdAt: now,
        updatedAt: now,
      },
      {
        nameEn: "City Node Alliance",
        nameZh: "城市节点联盟",
        descriptionEn: "Operators of the city nodes.",
        descriptionZh: "城市节点的运营方。",
        link: "https://example.com/",
        sortOrder: 20,
        createdAt: now,
        updatedAt: now,
      },
    ]);
  });
};
