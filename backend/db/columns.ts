import { bigint, customType, timestamp } from "drizzle-orm/pg-core";

/** Column types shared by every domain's tables (PostgreSQL dialect: PGlite embedded or a PostgreSQL server). */

export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/** Money: integer USD cents (house habit 9). */
export const cents = (name: string) => bigint(name, { mode: "number" });
