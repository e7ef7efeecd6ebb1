import { attachmentProblem, coverProblem, zipProblem } from "#contract/service-wizard.ts";
import type { UploadRule } from "#backend/kit/uploads.ts";

/**
 * The wizard's upload kinds (contract/uploads.ts: chaincode 60 MB, attachment 20 MB, cover 5 MB), checked
 * while they arrive (docs/decisions/023): the name with the contract's rule before any byte is read (its
 * size is counted by the upload path itself), then the content its extension allows.
 */
const nameRule = (problem: (file: { name: string; size: number }) => string | null) => (name: string) =>
  problem({ name, size: 1 });

const ZIP_MESSAGES = {
  unsafePath: "wizard:validation.file.zipUnsafe",
  bomb: "wizard:validation.file.zipBomb",
  invalid: "wizard:validation.file.zipInvalid",
};

export const wizardUploads = {
  chaincode: {
    nameProblem: nameRule(zipProblem),
    messages: {
      required: "wizard:validation.file.required",
      tooLarge: "wizard:validation.file.zipTooLarge",
      extension: "wizard:validation.file.zipOnly",
      wrongType: "wizard:validation.file.zipOnly",
      zip: ZIP_MESSAGES,
    },
  },
  attachment: {
    nameProblem: nameRule(attachmentProblem),
    messages: {
      required: "wizard:validation.file.required",
      tooLarge: "wizard:validation.file.attachmentTooLarge",
      extension: "wizard:validation.file.attachmentType",
      wrongType: "wizard:validation.file.attachmentContent",
      zip: ZIP_MESSAGES,
    },
  },
  cover: {
    nameProblem: nameRule(coverProblem),
    messages: {
      required: "wizard:validation.file.required",
      tooLarge: "wizard:validation.file.coverTooLarge",
      extension: "wizard:validation.file.coverType",
      wrongType: "wizard:validation.file.coverType",
    },
  },
} satisfies Record<string, UploadRule>;
