import { SignJWT } from 'jose';
import { FEATURE_BOARD, FEATURE_BOARD_TOKEN_SECONDS, type FeatureBoardToken } from '@parley/shared';
import type { Config } from '../../platform/config.js';
import type { Queryable } from '../../platform/db/client.js';
import { AppError, notFound } from '../../platform/errors.js';
import { purposeKey } from '../../platform/secrets/keyring.js';
import { findUserById, personName } from '../identity/index.js';

export const FEATURE_BOARD_KEY_MISSING_MESSAGE =
  'The feature board needs FEATURE_BOARD_SECRET or SECRETS_KEY to sign its sign-on tokens: set one on every process of this deployment';

const KEY_PURPOSE = 'parley feature board token v1';

/**
 * The HS256 key: FEATURE_BOARD_SECRET, which an external board shares; else a key derived from the secrets
 * key for the built-in board (docs/featureRequests.md, "The sign-on token").
 */
async function signingKey(config: Pick<Config, 'featureBoard' | 'secrets'>): Promise<Uint8Array> {
  if (config.featureBoard.secret !== null) return new TextEncoder().encode(config.featureBoard.secret);
  const derived = await purposeKey(config.secrets, KEY_PURPOSE, true);
  if (derived === null) throw new AppError(409, 'conflict', FEATURE_BOARD_KEY_MISSING_MESSAGE);
  return new Uint8Array(derived);
}

/** A short-lived signed token that tells the board who the signed-in person is. */
export async function issueBoardToken(
  q: Queryable,
  config: Pick<Config, 'featureBoard' | 'secrets'>,
  userId: string,
  now = new Date(),
): Promise<FeatureBoardToken> {
  const user = await findUserById(q, userId);
  if (user === null) throw notFound('The user');
  const issuedAt = Math.floor(now.getTime() / 1000);
  const expiresAt = issuedAt + FEATURE_BOARD_TOKEN_SECONDS;
  const token = await new SignJWT({ email: user.email, name: personName(user), operator: user.operator, board: FEATURE_BOARD })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(user.id)
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt)
    .sign(await signingKey(config));
  return {
    token,
    expiresAt: new Date(expiresAt * 1000).toISOString(),
    board: FEATURE_BOARD,
    operator: user.operator,
    boardUrl: config.featureBoard.url,
  };
}
