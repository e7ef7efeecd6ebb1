import { handlersOf } from "../../http/router";
import { addAttachment, addFunction, addPackage, addRole, advance, deleteItem, getCover, getDraft, saveBasic, saveCertificate, saveNodes, submit } from "./handlers";

/** The /vueapi handlers of the service publish wizard, by path (contract/service-wizard.ts). */
export const serviceWizardHandlers = handlersOf({
  "/sys/chainAppInfo/wizard/draft": getDraft,
  "/sys/chainAppInfo/wizard/cover": getCover,
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
});
