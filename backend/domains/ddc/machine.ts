import { DdcStatus, DdcTransferStatus } from "#contract/ddc-codes.ts";
import { Msg } from "#contract/messages.ts";
import { defineMachine, fromStates } from "#contract/state-machine.ts";

/**
 * A DDC and a portal transfer of one (docs/decisions/045) as state machines (contract/state-machine.ts). The
 * request that paid for a mint (a transfer) records the outcome the chain gives; `ddc.recover` settles what a
 * crash left unsettled (recover.ts). Each outcome applies once: a settled row takes no further outcome.
 *
 * DDC (DdcStatus):
 *
 * | event    | actor  | from        | to          |
 * |----------|--------|-------------|-------------|
 * | mined    | system | 1 minting   | 2 minted    |
 * | fail     | system | 1 minting   | 3 failed    |
 * | transfer | user   | 2 minted    | 2 minted    |
 *
 * Any other step is refused with DDC_NOT_MINTED (a DDC minting or failed cannot be transferred; the recovery
 * leaves a settled row as it is).
 *
 * Transfer (DdcTransferStatus):
 *
 * | event | actor  | from      | to       |
 * |-------|--------|-----------|----------|
 * | mined | system | 1 sending | 2 done   |
 * | fail  | system | 1 sending | 3 failed |
 *
 * Any other step is refused with NOT_FOUND (no transfer still sending; the recovery answers false).
 */
type DdcStatusValue = (typeof DdcStatus)[keyof typeof DdcStatus];
type TransferStatusValue = (typeof DdcTransferStatus)[keyof typeof DdcTransferStatus];
type Ctx = { comments?: string | null };

export const ddcMachine = defineMachine<DdcStatusValue, "mined" | "fail" | "transfer", "system" | "user", Ctx>({
  name: "DDC",
  states: [DdcStatus.MINTING, DdcStatus.MINTED, DdcStatus.FAILED],
  actors: ["system", "user"],
  rules: [
    { event: "mined", actor: "system", from: [DdcStatus.MINTING], to: DdcStatus.MINTED },
    { event: "fail", actor: "system", from: [DdcStatus.MINTING], to: DdcStatus.FAILED },
    { event: "transfer", actor: "user", from: [DdcStatus.MINTED], to: DdcStatus.MINTED },
  ],
  refusals: {
    notAvailable: Msg.DDC_NOT_MINTED,
    notAllowed: Msg.NO_PERMISSION,
    commentsRequired: Msg.COMMENTS_REQUIRED,
  },
});

export const ddcTransferMachine = defineMachine<TransferStatusValue, "mined" | "fail", "system", Ctx>({
  name: "DDC transfer",
  states: [DdcTransferStatus.SENDING, DdcTransferStatus.DONE, DdcTransferStatus.FAILED],
  actors: ["system"],
  rules: [
    { event: "mined", actor: "system", from: [DdcTransferStatus.SENDING], to: DdcTransferStatus.DONE },
    { event: "fail", actor: "system", from: [DdcTransferStatus.SENDING], to: DdcTransferStatus.FAILED },
  ],
  refusals: { notAvailable: Msg.NOT_FOUND, notAllowed: Msg.NO_PERMISSION, commentsRequired: Msg.COMMENTS_REQUIRED },
});

/**
 * The one state `event` applies from in `machine` (the compare-and-set of an outcome written without a lock) and
 * the state it leads to.
 */
export function stepOf<E extends string>(
  machine: { readonly rules: readonly { event: E; from: number | readonly number[]; to: unknown }[] },
  event: E,
): { from: number; to: number } {
  const rule = machine.rules.find((r) => r.event === event)!;
  return { from: fromStates(rule)[0]!, to: rule.to as number };
}
