import { and, eq, notInArray } from "drizzle-orm";
import type { Db, Tx } from "#backend/db/client.ts";
import { POOL, type ChainNodeConfig } from "#backend/kit/chain-nodes.ts";
import { chainNodeMap } from "./tables.ts";

/**
 * The operators' mapping of chains to nodes (chain_node_map; docs/decisions/094, addendum "The mapping as a table").
 * The rule, in one place:
 * - At start the CHAIN_NODES file seeds a row (source "file") for each chain it names, brings the rows it seeded
 *   in step with itself (a chain the file now names on another node moves there; a chain it no longer names loses
 *   its row and stays where it runs, the pool's rule), and never touches a row an operator set (source "operator").
 * - An operator's row wins over the file. Mapping a chain back to the node the file names for it makes the row the
 *   file's again (from then on the file decides it); any other node makes it the operator's.
 * - A row naming a node that is no longer in the file is ignored (the chain goes where the file or the pool puts
 *   it) and shown so on the page, until an operator maps it to a configured node.
 * Every process keeps the rows in memory and reads them again every few seconds, so a change made through one
 * process reaches the others' registries within that time (the process that made it re-opens the chain at once).
 */
export type MapRow = typeof chainNodeMap.$inferSelect;

/** How often each process reads the mapping again (a change made through another process). */
export const MAP_REFRESH_MS = 2_000;

export class NodeMap {
  private rows = new Map<string, MapRow>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    private readonly nodes: readonly ChainNodeConfig[],
  ) {}

  /** Seeds the file's rows (the rule above), then reads every row. */
  async seed(): Promise<void> {
    const named = this.nodes.flatMap((n) => n.chains.filter((c) => c !== POOL).map((chain) => ({ chain, url: n.url })));
    for (const { chain, url } of named) {
      await this.db
        .insert(chainNodeMap)
        .values({ chainName: chain, nodeUrl: url, source: "file" })
        .onConflictDoNothing();
      await this.db
        .update(chainNodeMap)
        .set({ nodeUrl: url })
        .where(and(eq(chainNodeMap.chainName, chain), eq(chainNodeMap.source, "file")));
    }
    const names = named.map((n) => n.chain);
    await this.db
      .delete(chainNodeMap)
      .where(
        names.length
          ? and(eq(chainNodeMap.source, "file"), notInArray(chainNodeMap.chainName, names))
          : eq(chainNodeMap.source, "file"),
      );
    await this.load();
  }

  /** Reads every row again. */
  async load(): Promise<void> {
    this.rows = new Map((await this.db.select().from(chainNodeMap)).map((r) => [r.chainName, r]));
  }

  /** Reads the rows every MAP_REFRESH_MS, then calls `changed` (which re-opens what moved). */
  follow(changed: () => Promise<unknown>): void {
    let busy = false;
    this.timer = setInterval(() => {
      if (busy) return;
      busy = true;
      this.load()
        .then(changed)
        .catch((error: Error) => console.warn(`chain node mapping: ${error.message}`))
        .finally(() => (busy = false));
    }, MAP_REFRESH_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** The configured node a row sends `chain` to, if it has a row and its node is configured. */
  mapped(chain: string): string | undefined {
    const url = this.rows.get(chain)?.nodeUrl;
    return url && this.nodes.some((n) => n.url === url) ? url : undefined;
  }

  row(chain: string): MapRow | undefined {
    return this.rows.get(chain);
  }

  /**
   * An operator maps `chain` to the node at `url`: the file's row again when the file names that node for it, the
   * operator's otherwise. Written with `db` (the caller's transaction); read again with `load` once it commits.
   */
  async set(db: Db | Tx, chain: string, url: string, by: string, at: Date): Promise<MapRow> {
    const source = this.nodes.some((n) => n.url === url && n.chains.includes(chain)) ? "file" : "operator";
    const values = { chainName: chain, nodeUrl: url, source, setBy: by, setAt: at } as const;
    const [row] = await db
      .insert(chainNodeMap)
      .values(values)
      .onConflictDoUpdate({ target: chainNodeMap.chainName, set: values })
      .returning();
    return row!;
  }
}
