import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { Trans, useTranslation } from "react-i18next";
import { ASSIGNABLE_ROLES } from "#contract/team-roles.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { InviteForm, type InviteAnswer } from "./InviteForm.tsx";
import { KeysSeenAfterRemoval, KeysSeenList, NameIn, type KeysSeenData } from "./KeysSeen.tsx";
import { SpendLimitForm, type SpendLimitAnswer } from "./SpendLimitForm.tsx";

type Member = {
  memberId: number;
  userName: string;
  realName: string | null;
  email: string;
  role: string;
  spendLimitCents: number;
  spentCents: number;
};
type Invitation = { invitationId: number; email: string; role: string; expiresAt: string; resendAt: string };
export type MembersData = {
  team: {
    teamAccountId: number;
    accountName: string;
    confirmationName: string;
    members: Member[];
    invitations: Invitation[];
  };
  removing: number | null;
  transferring: number | null;
  /** The keys of the member being removed, or just removed (issue 33). */
  keysSeen: KeysSeenData | null;
  language: "en" | "zh-CN";
  /** The spending-limit form's refusal, shown at its field with what was typed (ADR 080). */
  limitAnswer?: SpendLimitAnswer | null;
  /** The invitation form's refusal, at its field with what was typed. */
  inviteAnswer?: InviteAnswer | null;
};

function RoleSelect({ name = "role", value, label }: { name?: string; value?: string; label: string }) {
  const { t } = useTranslation();
  return (
    <label className="text-sm">
      <span className="sr-only">{label}</span>
      <select name={name} defaultValue={value ?? "developer"} className="input" aria-label={label}>
        {ASSIGNABLE_ROLES.map((r) => (
          <option key={r} value={r}>
            {t(`team.roles.${r}`)}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A removal's or a transfer's confirm step (a GET link opens it, so it works without JavaScript). */
function ConfirmBox({
  member,
  kind,
  confirmationName,
  children,
}: {
  member: Member;
  kind: "remove" | "transfer";
  confirmationName: string;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div
      role="alertdialog"
      aria-labelledby={`${kind}-title`}
      className="card space-y-3 border-amber-300"
      data-testid={`confirm-${kind}`}
    >
      <h2 id={`${kind}-title`} className="text-base font-semibold">
        {t(`team.${kind}.title`, { name: member.userName })}
      </h2>
      <p className="text-sm text-slate-700">
        {t(`team.${kind}.question`, { name: member.userName, confirmationName })}
      </p>
      {children}
      <Form method="post" className="flex flex-wrap items-end gap-2">
        <input type="hidden" name="memberId" value={member.memberId} />
        {kind === "transfer" ? (
          <label className="text-sm">
            {t("team.transfer.typeName", { confirmationName })}
            <input name="confirmation" className="input" required autoComplete="off" />
          </label>
        ) : null}
        <button type="submit" name="intent" value={kind} className="btn-danger">
          {t(`team.${kind}.confirm`)}
        </button>
        <Link to="/g/home/userCenter/Members" className="btn-secondary">
          {t("actions.cancel")}
        </Link>
      </Form>
    </div>
  );
}

/** The Members page (issue 33): members with their roles, open invitations, the invite form. */
export function MembersPage({
  team,
  removing,
  transferring,
  keysSeen,
  language,
  limitAnswer,
  inviteAnswer,
}: MembersData) {
  const { t } = useTranslation();
  const removingMember = team.members.find((m) => m.memberId === removing && m.role !== "owner");
  const transferTo = team.members.find((m) => m.memberId === transferring && m.role !== "owner");
  return (
    <div className="space-y-6">
      <PageHeader
        title={t("team.title")}
        description={
          <Trans
            t={t}
            i18nKey="team.intro"
            values={{ account: team.accountName }}
            components={{ account: <span data-user-content="" /> }}
          />
        }
      />
      {keysSeen ? <KeysSeenAfterRemoval seen={keysSeen} language={language} /> : null}
      {removingMember ? (
        <ConfirmBox member={removingMember} kind="remove" confirmationName={team.confirmationName}>
          {keysSeen?.memberId === removingMember.memberId && keysSeen.keys.length ? (
            <>
              <p className="text-sm text-slate-700">
                <NameIn i18nKey="team.keysSeen.intro" name={removingMember.userName} />
              </p>
              <KeysSeenList keys={keysSeen.keys} language={language} />
            </>
          ) : null}
        </ConfirmBox>
      ) : null}
      {transferTo ? <ConfirmBox member={transferTo} kind="transfer" confirmationName={team.confirmationName} /> : null}
      <section className="card overflow-x-auto" aria-labelledby="members-title">
        <h2 id="members-title" className="mb-3 text-base font-semibold">
          {t("team.members")}
        </h2>
        <table className="w-full text-sm" data-testid="members">
          <thead>
            <tr className="text-left text-slate-500">
              <th className="py-2">{t("team.member")}</th>
              <th>{t("team.email")}</th>
              <th>{t("team.role")}</th>
              <th>{t("team.spendLimit.title")}</th>
              <th>
                <span className="sr-only">{t("team.actions")}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {team.members.map((m) => (
              <tr key={m.memberId} className="border-t border-slate-100" data-testid={`member-${m.userName}`}>
                <td className="py-2" data-user-content="">
                  {m.realName ? `${m.realName} (${m.userName})` : m.userName}
                </td>
                <td>{m.email}</td>
                <td>
                  {m.role === "owner" ? (
                    t("team.roles.owner")
                  ) : (
                    <Form method="post" className="flex items-center gap-2">
                      <input type="hidden" name="memberId" value={m.memberId} />
                      <RoleSelect value={m.role} label={t("team.roleOf", { name: m.userName })} />
                      <button type="submit" name="intent" value="setRole" className="btn-secondary">
                        {t("team.changeRole")}
                      </button>
                    </Form>
                  )}
                </td>
                <td>
                  {m.role === "owner" ? (
                    t("team.spendLimit.unlimited")
                  ) : (
                    <SpendLimitForm
                      // A saved limit remounts the form, so it shows the limit as kept (25 → 25.00).
                      key={`${m.memberId}-${m.spendLimitCents}`}
                      member={m}
                      language={language}
                      lastResult={limitAnswer?.memberId === m.memberId ? limitAnswer.result : null}
                    />
                  )}
                </td>
                <td className="space-x-2 text-right">
                  {m.role === "owner" ? null : (
                    <>
                      <Link to={`?remove=${m.memberId}`} className="link">
                        {t("team.remove.action")}
                      </Link>
                      <Link to={`?transfer=${m.memberId}`} className="link">
                        {t("team.transfer.action")}
                      </Link>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section className="card space-y-3" aria-labelledby="invite-title">
        <h2 id="invite-title" className="text-base font-semibold">
          {t("team.invite.title")}
        </h2>
        <p className="text-sm text-slate-600">{t("team.invite.help")}</p>
        <InviteForm lastResult={inviteAnswer?.result ?? null} />
        {team.invitations.length ? (
          <ul className="divide-y divide-slate-100 text-sm" data-testid="invitations">
            {team.invitations.map((i) => (
              <li key={i.invitationId} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <span>
                  {i.email} · {t(`team.roles.${i.role}`)} ·{" "}
                  {t("team.invite.expires", { at: new Date(i.expiresAt).toISOString().slice(0, 10) })}
                </span>
                <Form method="post" className="flex gap-2">
                  <input type="hidden" name="invitationId" value={i.invitationId} />
                  <button type="submit" name="intent" value="resend" className="btn-secondary">
                    {t("team.invite.resend")}
                  </button>
                  <button type="submit" name="intent" value="cancel" className="btn-secondary">
                    {t("team.invite.cancel")}
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        ) : null}
      </section>
    </div>
  );
}
