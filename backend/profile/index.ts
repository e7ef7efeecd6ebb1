import type { Handlers } from "../http/router";
import type { JobHandler } from "../jobs/runner";
import { contactDetail, deleteContact, getProfile, listContacts, saveContact, updateProfile } from "./handlers";

type H = Handlers[keyof Handlers];

/** The /vueapi handlers of this domain, by path (contract/profile.ts). */
export const profileHandlers = {
  "/sys/system/clientInfo/profile": getProfile,
  "/sys/system/clientInfo/updateProfile": updateProfile,
  "/sys/system/clientInfo/contactList": listContacts as H,
  "/sys/system/clientInfo/contactDetail": contactDetail as H,
  "/sys/system/clientInfo/insertContactList": saveContact as H,
  "/sys/system/clientInfo/deleteContact": deleteContact as H,
} satisfies Partial<Handlers>;

/** The background jobs of this domain, by kind. */
export const profileJobs: Record<string, JobHandler> = {};
