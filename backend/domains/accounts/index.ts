import { handlersOf } from "../../http/router";
import { defineDomain } from "../../kit/domain";
import { createCaptcha } from "./captcha";
import { createDemoAccounts } from "./demo";
import { activate, changePassword, checkResetCode, clientInfo, login, logout, register, resetPassword, sendResetCode } from "./handlers";
import { hashPassword } from "./passwords";
import { licenceUpload } from "./rules";

/** Registration, activation, login, password reset and change (SPEC §5; contract/accounts.ts). */
export default defineDomain({
  name: "accounts",
  handlers: handlersOf({
    "/anon/captcha/create": (_input, ctx) => createCaptcha(ctx.services),
    "/anon/user/register": register,
    "/anon/user/activate": activate,
    "/anon/password/sendResetCode": sendResetCode,
    "/anon/password/checkResetCode": checkResetCode,
    "/main/updateEmailPassword": resetPassword,
    "/main/user/login": login,
    "/main/user/logout": logout,
    "/main/getClientInfo": clientInfo,
    "/main/updatePassword": changePassword,
  }),
  uploads: { licence: licenceUpload },
  api: { hashPassword, createDemoAccounts },
});
