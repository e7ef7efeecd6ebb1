import { eq } from "drizzle-orm";
import { cityNodes } from "#backend/db/tables.ts";
import type { Deps } from "#backend/deps.ts";
import type { Tx } from "#backend/db/client.ts";
import type { PRICE_AREAS } from "#contract/prices.ts";
import { CITY_NODES_KEY, type CityNodeRow } from "#backend/kit/constant-data.ts";

/** A city node's price column (contract/prices.ts PRICE_AREAS.cityNode). */
export type CityNodePriceField = (typeof PRICE_AREAS.cityNode)[number];

/**
 * SPEC §3 City node: the platform catalogue, its words in English and Chinese (docs/decisions/028). Prices in USD cents.
 * `interchainProtocols`: the §9 interchain protocols the node supports (docs/decisions/048); Chongqing and Virginia
 * support only the first.
 */
export const CITY_NODES = [
  {
    code: "CN-BJ-01",
    name: "Beijing",
    nameZh: "北京",
    operator: "China Mobile",
    cloudProvider: "China Mobile Cloud",
    address: "Haidian District, Beijing",
    operatorZh: "中国移动",
    cloudProviderZh: "移动云",
    addressZh: "北京市海淀区",
    availableTps: 3000,
    capacityGb: 2000,
    peers: 4,
    trafficPricePerGbCents: 12,
    tpsPricePerMonthCents: 150,
    tpsPricePerYearCents: 1500,
    interchainProtocols: [1, 2],
    capacityPricePerGbMonthCents: 20,
  },
  {
    code: "CN-SH-01",
    name: "Shanghai",
    nameZh: "上海",
    operator: "China Telecom",
    cloudProvider: "Tianyi Cloud",
    address: "Pudong New Area, Shanghai",
    operatorZh: "中国电信",
    cloudProviderZh: "天翼云",
    addressZh: "上海市浦东新区",
    availableTps: 2500,
    capacityGb: 1800,
    peers: 4,
    trafficPricePerGbCents: 12,
    tpsPricePerMonthCents: 150,
    tpsPricePerYearCents: 1500,
    interchainProtocols: [1, 2],
    capacityPricePerGbMonthCents: 20,
  },
  {
    code: "CN-GZ-01",
    name: "Guangzhou",
    nameZh: "广州",
    operator: "China Unicom",
    cloudProvider: "Unicom Cloud",
    address: "Tianhe District, Guangzhou",
    operatorZh: "中国联通",
    cloudProviderZh: "联通云",
    addressZh: "广州市天河区",
    availableTps: 2000,
    capacityGb: 1500,
    peers: 3,
    trafficPricePerGbCents: 11,
    tpsPricePerMonthCents: 140,
    tpsPricePerYearCents: 1400,
    interchainProtocols: [1, 2],
    capacityPricePerGbMonthCents: 18,
  },
  {
    code: "CN-CQ-01",
    name: "Chongqing",
    nameZh: "重庆",
    operator: "China Mobile",
    cloudProvider: "China Mobile Cloud",
    address: "Liangjiang New Area, Chongqing",
    operatorZh: "中国移动",
    cloudProviderZh: "移动云",
    addressZh: "重庆市两江新区",
    availableTps: 1500,
    capacityGb: 1200,
    peers: 3,
    trafficPricePerGbCents: 10,
    tpsPricePerMonthCents: 130,
    tpsPricePerYearCents: 1300,
    interchainProtocols: [1],
    capacityPricePerGbMonthCents: 16,
  },
  {
    code: "HK-01",
    name: "Hong Kong",
    nameZh: "香港",
    operator: "BSN International",
    cloudProvider: "Alibaba Cloud",
    address: "Kwun Tong, Hong Kong",
    operatorZh: "BSN 国际",
    cloudProviderZh: "阿里云",
    addressZh: "香港观塘",
    availableTps: 1200,
    capacityGb: 1000,
    peers: 3,
    trafficPricePerGbCents: 15,
    tpsPricePerMonthCents: 180,
    tpsPricePerYearCents: 1800,
    interchainProtocols: [1, 2],
    capacityPricePerGbMonthCents: 25,
  },
  {
    code: "SG-01",
    name: "Singapore",
    nameZh: "新加坡",
    operator: "BSN International",
    cloudProvider: "Google Cloud",
    address: "Jurong West, Singapore",
    operatorZh: "BSN 国际",
    cloudProviderZh: "谷歌云",
    addressZh: "新加坡裕廊西",
    availableTps: 1000,
    capacityGb: 800,
    peers: 3,
    trafficPricePerGbCents: 16,
    tpsPricePerMonthCents: 190,
    tpsPricePerYearCents: 1900,
    interchainProtocols: [1, 2],
    capacityPricePerGbMonthCents: 26,
  },
  {
    code: "DE-FRA-01",
    name: "Frankfurt",
    nameZh: "法兰克福",
    operator: "BSN International",
    cloudProvider: "Microsoft Azure",
    address: "Frankfurt am Main, Germany",
    operatorZh: "BSN 国际",
    cloudProviderZh: "微软 Azure",
    addressZh: "德国美因河畔法兰克福",
    availableTps: 800,
    capacityGb: 600,
    peers: 2,
    trafficPricePerGbCents: 18,
    tpsPricePerMonthCents: 210,
    tpsPricePerYearCents: 2100,
    interchainProtocols: [1, 2],
    capacityPricePerGbMonthCents: 28,
  },
  {
    code: "US-VA-01",
    name: "Virginia",
    nameZh: "弗吉尼亚",
    operator: "BSN International",
    cloudProvider: "Amazon Web Services",
    address: "Ashburn, Virginia, USA",
    operatorZh: "BSN 国际",
    cloudProviderZh: "亚马逊云科技",
    addressZh: "美国弗吉尼亚州阿什本",
    availableTps: 900,
    capacityGb: 700,
    peers: 2,
    trafficPricePerGbCents: 17,
    tpsPricePerMonthCents: 200,
    tpsPricePerYearCents: 2000,
    interchainProtocols: [1],
    capacityPricePerGbMonthCents: 27,
  },
];

/**
 * Platform data: always upserted, so catalogue changes reach existing databases; the kept copy is then cleared.
 * Prices are written only when a node is new: afterwards operators own them (the prices page, docs/decisions/036).
 */
export async function seedPlatform(deps: Pick<Deps, "db" | "constants">) {
  for (const node of CITY_NODES) {
    const {
      trafficPricePerGbCents: _t,
      tpsPricePerMonthCents: _m,
      tpsPricePerYearCents: _y,
      capacityPricePerGbMonthCents: _c,
      ...words
    } = node;
    await deps.db.insert(cityNodes).values(node).onConflictDoUpdate({ target: cityNodes.code, set: words });
  }
  deps.constants.clear(CITY_NODES_KEY);
}

/** Changes one city node (its prices, its capacity) and clears the kept catalogue (docs/decisions/030). */
export async function writeCityNode(
  deps: Pick<Deps, "db" | "constants">,
  id: number,
  set: Partial<Omit<CityNodeRow, "id">>,
) {
  await deps.db.update(cityNodes).set(set).where(eq(cityNodes.id, id));
  deps.constants.clear(CITY_NODES_KEY);
}

/**
 * Sets a city node's prices (the operators' prices page) inside the caller's transaction. The kept catalogue
 * (docs/decisions/030) can be cleared only once that transaction has committed: the caller must then call
 * `constants.clear(CITY_NODES_KEY)` (or clear them all), as prices' setPrices does.
 */
export async function setCityNodePrices(tx: Tx, id: number, prices: Partial<Record<CityNodePriceField, number>>) {
  await tx.update(cityNodes).set(prices).where(eq(cityNodes.id, id));
}
