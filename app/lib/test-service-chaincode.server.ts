import { json } from "@remix-run/node";
import { testChaincodeCallSchema } from "#contract/test-services.ts";
import type { Api } from "#app/lib/api.server.ts";

/**
 * The detail page's query or invoke of a Fabric test service's chaincode (docs/decisions/069): the answer (or the
 * refusal's message) comes back as the action's data, with what was asked, so the page shows both with or without
 * JavaScript. A bad function name is a 400 with its message; a failure of the server stays a 5xx.
 */
export async function chaincodeCall(
  api: Api,
  input: { testServiceId: number; mode: "query" | "invoke"; form: FormData },
) {
  const fn = String(input.form.get("fn") ?? "");
  const args = String(input.form.get("args") ?? "");
  const asked = { mode: input.mode, fn, args };
  const parsed = testChaincodeCallSchema.safeParse({ testServiceId: input.testServiceId, mode: input.mode, fn, args });
  if (!parsed.success) {
    const key = parsed.error.issues[0]?.message ?? "validation.required";
    return json(
      { chaincode: { ...asked, answer: null, errorKey: key.includes(":") ? key : `forms:${key}` } },
      { status: 400 },
    );
  }
  const result = await api.call("/sys/testService/chaincode", parsed.data);
  if (!result.ok) {
    if (result.status >= 500) throw json({ messageKey: result.messageKey }, { status: result.status });
    return json({ chaincode: { ...asked, answer: null, errorKey: result.messageKey } }, { status: result.status });
  }
  return json({ chaincode: { ...asked, answer: result.data, errorKey: null } });
}
