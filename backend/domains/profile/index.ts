import { handlersOf } from "../../http/router";
import type { JobHandler } from "../../jobs/runner";
import { contactDetail, deleteContact, getProfile, listContacts, saveContact, updateProfile } from "./handlers";

/** The /vueapi handlers of this domain, by path (contract/profile.ts). */
export const profileHandlers = handlersOf({
  "/sys/system/clientInfo/profile": getProfile,
  "/sys/system/clientInfo/updateProfile": updateProfile,
  "/sys/system/clientInfo/contactList": listContacts,
  "/sys/system/clientInfo/contactDetail": contactDetail,
  "/sys/system/clientInfo/insertContactList": saveContact,
  "/sys/system/clientInfo/deleteContact": deleteContact,
});

/** The background jobs of this domain, by kind. */
export const profileJobs: Record<string, JobHandler> = {};
