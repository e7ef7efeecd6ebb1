import { downloadHandlersOf, handlersOf } from "#backend/http/router.ts";
import { defineDomain } from "#backend/kit/domain.ts";
import { checkCaptcha, createCaptcha } from "./captcha.ts";
import {
  certification,
  certificationLicence,
  certificationOf,
  companyFeatureRefusal,
  listCertifications,
  resubmitCertification,
  reviewCertification,
} from "./certification.ts";
import { createDemoAccount, createDemoAccounts } from "./demo.ts";
import {
  activate,
  changePassword,
  checkResetCode,
  clientInfo,
  logout,
  register,
  resetPassword,
  sendResetCode,
} from "./handlers.ts";
import { login, logoutEverywhere } from "./login.ts";
import { confirmEnrolment, enrolment, promoteToOperator, seedDemoSecondFactors, verifySecondFactor } from "./mfa.ts";
import { createOperator } from "./operators.ts";
import { hashPassword } from "./passwords.ts";
import { licenceUpload } from "./rules.ts";
import { saveProfileDetails, toUser } from "./users.ts";
import { myAccounts, removeMember, setRole, setSpendLimit, switchAccount, transferOwnership } from "./team.ts";
import { accept, cancelInvitation, invite, resend, team, viewInvitation } from "./team-invitations.ts";

/** Registration, activation, teams (members, roles, invitations: docs/decisions/075), enterprise certification (docs/decisions/071), login (with its limits and locks, and the operators' second factor: docs/decisions/022), logout, password reset and change (SPEC §5; contract/accounts.ts). */
export default defineDomain({
  name: "accounts",
  handlers: handlersOf({
    "/anon/captcha/create": (_input, ctx) => createCaptcha(ctx.deps, ctx.clientAddress),
    "/anon/user/register": register,
    "/anon/user/activate": activate,
    "/anon/password/sendResetCode": sendResetCode,
    "/anon/password/checkResetCode": checkResetCode,
    "/main/updateEmailPassword": resetPassword,
    "/main/user/login": login,
    "/main/user/logout": logout,
    "/main/user/logoutEverywhere": logoutEverywhere,
    "/main/getClientInfo": clientInfo,
    "/main/updatePassword": changePassword,
    "/main/mfa/enrolment": enrolment,
    "/main/mfa/confirm": confirmEnrolment,
    "/main/mfa/verify": verifySecondFactor,
    "/sys/system/clientInfo/certification": certification,
    "/sys/system/clientInfo/resubmitCertification": resubmitCertification,
    "/sys/ops/certifications/list": listCertifications,
    "/sys/ops/certifications/review": reviewCertification,
    // Teams (issue 33, docs/decisions/075).
    "/main/team/accounts": myAccounts,
    "/main/team/switch": switchAccount,
    "/main/team/invitation": viewInvitation,
    "/main/team/accept": accept,
    "/sys/team/members": team,
    "/sys/team/invite": invite,
    "/sys/team/resend": resend,
    "/sys/team/cancelInvitation": cancelInvitation,
    "/sys/team/setRole": setRole,
    "/sys/team/spendLimit": setSpendLimit,
    "/sys/team/remove": removeMember,
    "/sys/team/transfer": transferOwnership,
  }),
  downloads: downloadHandlersOf({ "ops-certification-licence": certificationLicence }),
  uploads: { licence: licenceUpload },
  api: {
    hashPassword,
    createDemoAccounts,
    createDemoAccount,
    createOperator,
    toUser,
    checkCaptcha,
    saveProfileDetails,
    certificationOf,
    companyFeatureRefusal,
  },
  seedDemo: seedDemoSecondFactors,
  fixtures: handlersOf({ "/test/accounts/operator": promoteToOperator }),
});
