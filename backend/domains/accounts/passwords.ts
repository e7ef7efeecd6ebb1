import bcrypt from "bcryptjs";

/** Password hashing with bcrypt (bcryptjs, cost 10). Passwords are never logged or stored in clear. */
const COST = 10;

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, COST);
}

export function verifyPassword(password: string, hash: string): Promise<boolean> {
  return bcrypt.compare(password, hash);
}
