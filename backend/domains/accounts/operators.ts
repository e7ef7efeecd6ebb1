import { sql } from "drizzle-orm";
import { operatorAccountSchema } from "#contract/accounts.ts";
import { Msg } from "#contract/messages.ts";
import type { Db } from "#backend/db/client.ts";
import { users } from "#backend/db/tables.ts";
import { ApiError } from "#backend/http/errors.ts";
import { fieldErrorsOf } from "#backend/http/router.ts";
import { hashPassword } from "./passwords.ts";
import inbox from "#backend/domains/inbox/index.ts";

export type OperatorInput = { userName: string; email: string; password: string; realName?: string; mobile?: string };

/** The real name an operator account gets when none is given: "operations staff" (SPEC §5: Chinese characters). */
export const DEFAULT_OPERATOR_NAME = "运维人员";

/**
 * Creates an operator account, activated (docs/decisions/020: the first operator of a server is made with
 * `npm run operator:create`, never by demo data). The §5 rules apply; a username or email already
 * registered (case-insensitive) is refused. Refusals are ApiErrors with field errors, as on the API.
 */
export async function createOperator(
  db: Db,
  input: OperatorInput,
  now: Date,
): Promise<{ userId: number; userName: string }> {
  const parsed = operatorAccountSchema.safeParse({ ...input, realName: input.realName ?? DEFAULT_OPERATOR_NAME });
  if (!parsed.success) throw new ApiError(Msg.INVALID_PARAMS, { fieldErrors: fieldErrorsOf(parsed.error) });
  const account = parsed.data;
  const passwordHash = await hashPassword(account.password);
  return db.transaction(async (tx) => {
    const taken = await tx
      .select({ userName: users.userName, email: users.email })
      .from(users)
      .where(
        sql`lower(${users.userName}) = ${account.userName.toLowerCase()} or lower(${users.email}) = ${account.email.toLowerCase()}`,
      );
    const fieldErrors: Record<string, string[]> = {};
    if (taken.some((t) => t.userName.toLowerCase() === account.userName.toLowerCase()))
      fieldErrors.userName = [`errors:${Msg.USERNAME_TAKEN}`];
    if (taken.some((t) => t.email.toLowerCase() === account.email.toLowerCase()))
      fieldErrors.email = [`errors:${Msg.EMAIL_TAKEN}`];
    if (fieldErrors.userName || fieldErrors.email)
      throw new ApiError(fieldErrors.userName ? Msg.USERNAME_TAKEN : Msg.EMAIL_TAKEN, { fieldErrors });
    const [row] = await tx
      .insert(users)
      .values({
        userName: account.userName,
        email: account.email,
        realName: account.realName.normalize("NFC"),
        mobile: account.mobile ?? null,
        userType: 1,
        role: "operator",
        passwordHash,
        activatedAt: now,
        createdAt: now,
      })
      .returning({ id: users.id, userName: users.userName });
    await inbox.api.notify(tx, {
      userId: row.id,
      textKey: "messages.welcome",
      params: { userName: row.userName },
      at: now,
    });
    return { userId: row.id, userName: row.userName };
  });
}
