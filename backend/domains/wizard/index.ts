import type { Handlers } from "../../http/router";
import { addAttachment, addFunction, addPackage, addRole, advance, deleteItem, getCover, getDraft, saveBasic, saveCertificate, saveNodes, submit } from "./handlers";

type H = Handlers[keyof Handlers];

/** The /vueapi handlers of the service publish wizard, by path (contract/service-wizard.ts). */
export const serviceWizardHandlers = {
  "/sys/chainAppInfo/wizard/draft": getDraft as H,
  "/sys/chainAppInfo/wizard/cover": getCover as H,
  "/sys/chainAppInfo/wizard/saveBasic": saveBasic as H,
  "/sys/chainAppInfo/wizard/addAttachment": addAttachment as H,
  "/sys/chainAppInfo/wizard/addPackage": addPackage as H,
  "/sys/chainAppInfo/wizard/addFunction": addFunction as H,
  "/sys/chainAppInfo/wizard/addRole": addRole as H,
  "/sys/chainAppInfo/wizard/delete": deleteItem as H,
  "/sys/chainAppInfo/wizard/saveNodes": saveNodes as H,
  "/sys/chainAppInfo/wizard/saveCertificate": saveCertificate as H,
  "/sys/chainAppInfo/wizard/advance": advance as H,
  "/sys/chainAppInfo/wizard/submit": submit as H,
} satisfies Partial<Handlers>;
