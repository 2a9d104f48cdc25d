import { randomBytes } from 'node:crypto';
import { nodeTokenHash } from '@streamcloud/contract/node-control-credential';

/** Node tokens look like `scn_<43 characters>`: 32 random bytes, base64url. */
export const NODE_TOKEN_PREFIX = 'scn_';

export const generateNodeToken = (): string => `${NODE_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;

/** Only this hash is stored; a token is unguessable, so a fast hash is enough. */
export const hashNodeToken = nodeTokenHash;

export const looksLikeNodeToken = (token: string): boolean =>
  token.startsWith(NODE_TOKEN_PREFIX) && token.length === NODE_TOKEN_PREFIX.length + 43;
