import { licenceProblem } from "#contract/accounts.ts";
import type { UploadRule } from "#backend/kit/uploads.ts";

/**
 * SPEC §5 Registration "Licence upload max 8MB" (contract/uploads.ts): the enterprise's business licence,
 * uploaded before its account exists, so anonymously (docs/decisions/023). The name with the contract's
 * rule before any byte is read; then a PDF, PNG or JPG by its bytes.
 */
export const licenceUpload: UploadRule = {
  nameProblem: (name) => licenceProblem({ name, size: 1, type: "" }),
  messages: {
    required: "validation.licence.required",
    tooLarge: "validation.licence.tooLarge",
    extension: "validation.licence.type",
    wrongType: "validation.licence.type",
  },
};
