import { handlersOf } from "#backend/http/router.ts";
import { defineDomain } from "#backend/kit/domain.ts";
import { seedDemoProfiles } from "./demo.ts";
import { contactDetail, deleteContact, getProfile, listContacts, saveContact, updateProfile } from "./handlers.ts";

/** Basic information and contacts (SPEC §3, §5; contract/profile.ts; docs/decisions/009). */
export default defineDomain({
  name: "profile",
  handlers: handlersOf({
    "/sys/system/clientInfo/profile": getProfile,
    "/sys/system/clientInfo/updateProfile": updateProfile,
    "/sys/system/clientInfo/contactList": listContacts,
    "/sys/system/clientInfo/contactDetail": contactDetail,
    "/sys/system/clientInfo/insertContactList": saveContact,
    "/sys/system/clientInfo/deleteContact": deleteContact,
  }),
  seedDemo: seedDemoProfiles,
});
