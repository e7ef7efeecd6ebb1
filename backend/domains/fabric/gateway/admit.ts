import { X509Certificate } from "node:crypto";
import { and, asc, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { accessAllowed } from "#contract/participation-codes.ts";
import { VerState } from "#contract/service-status.ts";
import type { Db } from "#backend/db/client.ts";
import { cityNodes } from "#backend/db/tables.ts";
import { appJoins, certificates } from "#backend/domains/participation/tables.ts";
import { appNodes, appVersions, apps } from "#backend/domains/services/tables.ts";
import type { GatewayCaller } from "./meter.ts";

/**
 * Who may call a service's channel (docs/decisions/065), read from the services' and participation's tables: a
 * channel is one service (its APPCode in lower case), and a caller is the holder of a certificate the service's CA
 * issued to a participation that gives access now (`accessAllowed`, as the JSON-RPC door: approved, not
 * disabled) to a running service, and that is not revoked.
 */
export const channelOfAppCode = (appCode: string) => appCode.toLowerCase();
export const mspIdOfAppCode = (appCode: string) => `${appCode}MSP`;

/** The service a channel name stands for, or null (the name is matched case-insensitively, as APPCodes are upper). */
export async function serviceOfChannel(db: Db, channel: string) {
  if (!/^[a-z][a-z0-9]{0,63}$/.test(channel)) return null;
  const [row] = await db
    .select({ id: apps.id, appCode: apps.appCode, name: apps.name, userId: apps.userId, framework: apps.framework })
    .from(apps)
    .where(eq(sql`lower(${apps.appCode})`, channel));
  return row ?? null;
}

/** Hex serial numbers compared without case or leading zeros. */
const serialKey = (serial: string) => serial.toLowerCase().replace(/^0+/, "");

/**
 * The caller a certificate of service `appId` is, when it may call now (for the meter: the publisher who pays, the
 * join, the participant, the first booked city node of the running version), else null. The certificate's chain to
 * the service's CA is the gateway's check; here the certificate must be the very one the service issued.
 */
export async function admitCaller(db: Db, appId: number, certificatePem: string): Promise<GatewayCaller | null> {
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(certificatePem);
  } catch {
    return null;
  }
  const rows = await db
    .select({
      pem: certificates.certificatePem,
      serial: certificates.serialNumber,
      joinId: appJoins.id,
      callerId: appJoins.userId,
      auditState: appJoins.auditState,
      disabledAt: appJoins.disabledAt,
      publisher: apps.userId,
      verId: apps.currentVerId,
      verState: appVersions.verState,
    })
    .from(certificates)
    .innerJoin(appJoins, eq(appJoins.id, certificates.joinId))
    .innerJoin(apps, eq(apps.id, certificates.appId))
    .leftJoin(appVersions, eq(appVersions.id, apps.currentVerId))
    .where(
      and(
        eq(certificates.appId, appId),
        eq(sql`lower(ltrim(${certificates.serialNumber}, '0'))`, serialKey(cert.serialNumber)),
        isNull(certificates.revokedAt),
      ),
    );
  const row = rows.find((r) => {
    try {
      return new X509Certificate(r.pem).fingerprint256 === cert.fingerprint256;
    } catch {
      return false;
    }
  });
  if (!row || row.verId === null || row.verState !== VerState.RUNNING) return null;
  if (!accessAllowed({ auditState: row.auditState, verState: row.verState ?? 0, disabled: row.disabledAt !== null }))
    return null;
  const [node] = await db
    .select({ id: appNodes.cityNodeId })
    .from(appNodes)
    .innerJoin(cityNodes, eq(cityNodes.id, appNodes.cityNodeId))
    .where(and(eq(appNodes.verId, row.verId), isNotNull(appNodes.bookedAt)))
    .orderBy(asc(cityNodes.id))
    .limit(1);
  if (!node) return null;
  return { userId: row.publisher, appId, joinId: row.joinId, callerId: row.callerId, cityNodeId: node.id };
}
