import { and, count, desc, eq } from "drizzle-orm";
import type { z } from "zod";
import { Msg } from "#contract/messages.ts";
import {
  enterpriseProfileSchema,
  individualProfileSchema,
  MAX_CONTACTS,
  type Contact,
  type contactFormSchema,
  type Profile,
} from "#contract/profile.ts";
import type { pageRequestSchema } from "#contract/platform.ts";
import { contacts } from "./tables.ts";
import { users } from "#backend/db/tables.ts";
import accounts from "#backend/domains/accounts/index.ts";
import { ApiError } from "#backend/http/errors.ts";
import { fieldErrorsOf, type SignedInContext } from "#backend/http/router.ts";

const str = (n: number | null) => (n === null ? null : String(n));

function toProfile(row: typeof users.$inferSelect): Profile {
  return {
    userType: row.userType === 2 ? 2 : 1,
    userName: row.userName,
    realName: row.realName,
    email: row.email,
    mobile: row.mobile,
    country: row.country,
    selfIntroduction: row.selfIntroduction,
    companyName: row.companyName,
    creditCode: row.creditCode,
    termOfBusiness: str(row.termOfBusiness),
    staffCount: str(row.staffCount),
    businessInformation: row.businessInformation,
    mainBusiness: row.mainBusiness,
    companyProfile: row.companyProfile,
    companyUrl: row.companyUrl,
    companyAddress: row.companyAddress,
    contactName: row.contactName,
    fax: row.fax,
  };
}

/** SPEC §3 Profile of the caller. */
export async function getProfile(_input: unknown, { deps, user }: SignedInContext): Promise<Profile> {
  // The whole row: the token check reads only the caller's basics (docs/decisions/030).
  const [row] = await deps.db.select().from(users).where(eq(users.id, user.id));
  return toProfile(row);
}

/**
 * SPEC §5 Profile: the fields of the caller's own account type, checked again here with the schema of
 * that type (an individual cannot set company fields; an enterprise must give all its required ones).
 * Email and mobile are not accepted (§6: only through support).
 */
export async function updateProfile(input: unknown, { deps, user }: SignedInContext): Promise<Profile> {
  const me = user;
  if (me.userType === 2) {
    const parsed = enterpriseProfileSchema.safeParse(input);
    if (!parsed.success) throw new ApiError(Msg.INVALID_PARAMS, { fieldErrors: fieldErrorsOf(parsed.error) });
    const v = parsed.data;
    const row = await accounts.api.saveProfileDetails(deps.db, me.id, {
      country: v.country,
      selfIntroduction: v.selfIntroduction,
      termOfBusiness: Number(v.termOfBusiness),
      staffCount: Number(v.staffCount),
      businessInformation: v.businessInformation ?? null,
      mainBusiness: v.mainBusiness ?? null,
      companyProfile: v.companyProfile,
      companyUrl: v.companyUrl ?? null,
      companyAddress: v.companyAddress,
      contactName: v.contactName,
      fax: v.fax ?? null,
    });
    return toProfile(row);
  }
  const parsed = individualProfileSchema.safeParse(input);
  if (!parsed.success) throw new ApiError(Msg.INVALID_PARAMS, { fieldErrors: fieldErrorsOf(parsed.error) });
  const row = await accounts.api.saveProfileDetails(deps.db, me.id, {
    country: parsed.data.country,
    selfIntroduction: parsed.data.selfIntroduction,
  });
  return toProfile(row);
}

function toContact(row: typeof contacts.$inferSelect): Contact {
  return {
    contactId: row.id,
    name: row.name,
    mobile: row.mobile,
    email: row.email,
    department: row.department,
    createdAt: row.createdAt.toISOString(),
  };
}

/** SPEC §5 Contacts of the caller, newest first. */
export async function listContacts(input: z.output<typeof pageRequestSchema>, { deps, user }: SignedInContext) {
  const me = user;
  const { pageSize, pageIndex } = input.page;
  const where = eq(contacts.userId, me.id);
  const [rows, [{ total }]] = await Promise.all([
    deps.db
      .select()
      .from(contacts)
      .where(where)
      .orderBy(desc(contacts.createdAt), desc(contacts.id))
      .limit(pageSize)
      .offset((pageIndex - 1) * pageSize),
    deps.db.select({ total: count() }).from(contacts).where(where),
  ]);
  return { page: { rows: rows.map(toContact), total, pageIndex, pageSize } };
}

async function ownContact(ctx: SignedInContext, contactId: number) {
  const me = ctx.user;
  const [row] = await ctx.deps.db
    .select()
    .from(contacts)
    .where(and(eq(contacts.id, contactId), eq(contacts.userId, me.id)));
  // Another user's contact is answered exactly like a missing one.
  if (!row) throw new ApiError(Msg.NOT_FOUND);
  return row;
}

export async function contactDetail(input: { contactId: number }, ctx: SignedInContext) {
  return toContact(await ownContact(ctx, input.contactId));
}

/** Adds a contact, or updates the caller's own contact when `contactId` is given. */
export async function saveContact(
  input: z.output<typeof contactFormSchema> & { contactId?: number },
  ctx: SignedInContext,
) {
  const me = ctx.user;
  const values = { name: input.name, mobile: input.mobile, email: input.email, department: input.department };
  if (input.contactId !== undefined) {
    await ownContact(ctx, input.contactId);
    const [row] = await ctx.deps.db
      .update(contacts)
      .set(values)
      .where(and(eq(contacts.id, input.contactId), eq(contacts.userId, me.id)))
      .returning();
    return toContact(row);
  }
  return ctx.deps.db.transaction(async (tx) => {
    // Serialise this user's additions so the limit holds under concurrent requests.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, me.id)).for("update");
    const [{ n }] = await tx.select({ n: count() }).from(contacts).where(eq(contacts.userId, me.id));
    if (n >= MAX_CONTACTS) throw new ApiError(Msg.CONTACT_LIMIT);
    const [row] = await tx
      .insert(contacts)
      .values({ ...values, userId: me.id, createdAt: ctx.deps.now() })
      .returning();
    return toContact(row);
  });
}

export async function deleteContact(input: { contactId: number }, ctx: SignedInContext) {
  const me = ctx.user;
  await ownContact(ctx, input.contactId);
  await ctx.deps.db.delete(contacts).where(and(eq(contacts.id, input.contactId), eq(contacts.userId, me.id)));
  return null;
}
