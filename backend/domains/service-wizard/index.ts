import { downloadHandlersOf, handlersOf } from "#backend/http/router.ts";
import { defineDomain } from "#backend/kit/domain.ts";
import { wizardUploads } from "./rules.ts";
import { getCover, getDraft, saveBasic } from "./handlers/basic-info.ts";
import { addAttachment, addFunction, addPackage, addRole, deleteItem } from "./handlers/contents.ts";
import { advance, saveCertificate, saveNodes, submit } from "./handlers/nodes-and-submit.ts";
import { discardDraft, listDrafts } from "./handlers/drafts-list.ts";

/** The service publish wizard: drafts, packages, functions, roles, nodes, certificate mode, submission (SPEC §2, §5; contract/service-wizard.ts; docs/decisions/011). */
export default defineDomain({
  name: "service-wizard",
  downloads: downloadHandlersOf({ "wizard-cover": getCover }),
  handlers: handlersOf({
    "/sys/chainAppInfo/wizard/draft": getDraft,
    "/sys/chainAppInfo/wizard/saveBasic": saveBasic,
    "/sys/chainAppInfo/wizard/addAttachment": addAttachment,
    "/sys/chainAppInfo/wizard/addPackage": addPackage,
    "/sys/chainAppInfo/wizard/addFunction": addFunction,
    "/sys/chainAppInfo/wizard/addRole": addRole,
    "/sys/chainAppInfo/wizard/delete": deleteItem,
    "/sys/chainAppInfo/wizard/saveNodes": saveNodes,
    "/sys/chainAppInfo/wizard/saveCertificate": saveCertificate,
    "/sys/chainAppInfo/wizard/advance": advance,
    "/sys/chainAppInfo/wizard/submit": submit,
    "/sys/chainAppInfo/wizard/drafts": listDrafts,
    "/sys/chainAppInfo/wizard/discard": discardDraft,
  }),
  uploads: wizardUploads,
});
