import { json } from "@remix-run/node";
import { assignableRoleSchema, refusalMessage, roleMay, type Permission } from "#contract/team.ts";
import { apiFor, type Api, type Viewer } from "./api.server.ts";
import type { VueapiResult } from "./vueapi.server.ts";

/**
 * A page only some roles may open (issue 33: the wizard for services, recharge for pay): the role of the
 * session's member in the account it acts for, or a thrown 403 that the shell renders inside the console with
 * the message naming the roles that may. The backend refuses the page's calls the same way; this says so
 * before a form is shown that could not be sent.
 */
export async function requirePermission(request: Request, viewer: Viewer, permission: Permission) {
  const accounts = await apiFor(request, viewer).load("/main/team/accounts", {});
  const role = accounts.find((a) => a.current)?.role ?? "owner";
  if (!roleMay(role, permission)) throw json({ messageKey: `errors:${refusalMessage(permission)}` }, { status: 403 });
  return role;
}

/** The number in a form field, or null. */
const idOf = (form: FormData, field: string) => {
  const n = Number(form.get(field));
  return Number.isInteger(n) && n > 0 ? n : null;
};

/**
 * The Members page's forms by intent (issue 33): the backend call each makes and the flash of its success;
 * null for an unknown intent or a form that names nothing (a 400); `to` is where a success goes (after the page). The values are checked again by the
 * contract's schemas in the backend; a refusal comes back as the flash of its message.
 */
export function teamIntent(
  api: Api,
  form: FormData,
): { run: () => Promise<VueapiResult<unknown>>; success: string; to?: string } | null {
  const intent = form.get("intent");
  const role = assignableRoleSchema.safeParse(form.get("role"));
  const memberId = idOf(form, "memberId");
  const invitationId = idOf(form, "invitationId");
  switch (intent) {
    case "resend":
      return invitationId
        ? { run: () => api.call("/sys/team/resend", { invitationId }), success: "common:team.resent" }
        : null;
    case "cancel":
      return invitationId
        ? { run: () => api.call("/sys/team/cancelInvitation", { invitationId }), success: "common:team.cancelled" }
        : null;
    case "setRole":
      return memberId && role.success
        ? {
            run: () => api.call("/sys/team/setRole", { memberId, role: role.data }),
            success: "common:team.roleChanged",
          }
        : null;
    case "remove":
      return memberId
        ? {
            run: () => api.call("/sys/team/remove", { memberId }),
            success: "common:team.removed",
            // The page then offers to change the keys the member saw (issue 33).
            to: `?removed=${memberId}`,
          }
        : null;
    case "transfer":
      return memberId
        ? {
            run: () =>
              api.call("/sys/team/transfer", { memberId, confirmation: String(form.get("confirmation") ?? "") }),
            success: "common:team.transferred",
          }
        : null;
    default:
      return null;
  }
}
