import { TZDate } from "@date-fns/tz";
import { addBusinessDays, format } from "date-fns";
import { WITHDRAWAL_WORKING_DAYS } from "#contract/payments.ts";

/** Calendar days are those of UTC+8, as shown (SPEC §9 Dates). */
const TIME_ZONE = "Asia/Shanghai";

/** SPEC §9: an approved withdrawal arrives within 7 working days (Monday to Friday). */
export function expectedArrival(now: Date): string {
  return format(addBusinessDays(new TZDate(now.getTime(), TIME_ZONE), WITHDRAWAL_WORKING_DAYS), "yyyy-MM-dd");
}
