import { hash, verify, type Options } from '@node-rs/argon2';

// OWASP's argon2id minimum (19 MiB, 2 passes, 1 lane); about 20-30 ms on one core here. The algorithm
// is the package's default, Argon2id (its Algorithm enum is type-only, so it cannot be named here);
// the test checks the `$argon2id$` prefix.
const options: Options = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

/** An argon2id PHC string (`$argon2id$v=19$m=...`) with a random salt. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

/** False for a wrong password and for anything that is not a valid hash. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | null = null;

/**
 * Spends the time of one verification without a user, so an unknown email answers as slowly as a
 * wrong password and response times do not tell which emails exist.
 */
export async function verifyNothing(password: string): Promise<void> {
  dummyHash ??= hashPassword('not a password of anyone');
  await verifyPassword(await dummyHash, password);
}
