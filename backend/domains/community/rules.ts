/**
 * The pure rules of the community's content (docs/decisions/040), tested by tables in tests/unit/community.test.ts.
 */

export type SignupState = {
  now: Date;
  deadline: Date | null;
  startsAt: Date | null;
  capacity: number | null;
  taken: number;
  mine: boolean;
};
export type SignupRefusal = "closed" | "full" | "already" | null;

/**
 * Why a sign-up is refused, or null: once per user and event (checked first, so a repeated submit says so),
 * not after the deadline nor once the event has started, not beyond the capacity.
 */
export function signupRefusal(s: SignupState): SignupRefusal {
  if (s.mine) return "already";
  const t = s.now.getTime();
  if (!s.deadline || t > s.deadline.getTime() || (s.startsAt && t >= s.startsAt.getTime())) return "closed";
  if (s.capacity === null || s.taken >= s.capacity) return "full";
  return null;
}

/** Seats left of an event (never below zero). */
export function seatsLeft(capacity: number | null, taken: number): number {
  return Math.max(0, (capacity ?? 0) - taken);
}
