import crypto from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import type { Language, TokenResponse } from '@tempora/contracts';
import type { Database } from '../db/database.ts';
import { AppError, errors } from '../errors.ts';
import type { TokenSigner } from './keys.ts';
import { type ActionMode, actionLink, actionMail } from './mails.ts';
import type { Outbox } from './outbox.ts';
import { hashSecret, randomSecret, identityRepository as repo } from './repository.ts';

/**
 * Argon2id cost (OWASP 2023 minimum: m=19 MiB, t=2, p=1): about 20–40 ms per hash on one core,
 * which bounds sign-in at a few dozen per second per core (see bench/identity.bench.ts).
 */
export const ARGON2_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
const VERIFY_CODE_TTL_MS = 24 * 3600_000;
const RESET_CODE_TTL_MS = 3600_000;
const REFRESH_TTL_MS = 30 * 24 * 3600_000;

export const identityErrors = {
  emailInUse: () => errors.conflict('EMAIL_IN_USE', 'This e-mail address is already in use'),
  invalidCredentials: () => new AppError(401, 'INVALID_CREDENTIALS', 'Wrong e-mail or password'),
  notVerified: () => new AppError(403, 'EMAIL_NOT_VERIFIED', 'Confirm your e-mail address first'),
  codeInvalid: () => errors.badRequest('CODE_INVALID', 'This code is not valid or was already used'),
  codeExpired: () => errors.badRequest('CODE_EXPIRED', 'This code has expired'),
  refreshInvalid: () => new AppError(401, 'REFRESH_INVALID', 'Sign in again'),
};

/** Hashes a password with Argon2id (@node-rs/argon2's default algorithm). */
export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

export type IdentityService = ReturnType<typeof createIdentityService>;

/**
 * The built-in identity provider's commands. Links in mails point at `publicUrl` (config
 * `publicUrl`), never at a host taken from the request (issue 13: `X-Forwarded-Host` would put an
 * attacker's host in the mail).
 */
export function createIdentityService(deps: {
  database: Database;
  signer: TokenSigner;
  outbox: Outbox;
  publicUrl: string;
}) {
  const { database: db, signer, outbox, publicUrl } = deps;
  // Compared against when the account does not exist, so unknown and known e-mails take as long.
  const dummyHash = hashPassword(randomSecret());

  async function sendCode(
    user: { sub: string; email: string; lng: Language },
    mode: ActionMode,
    next?: string,
  ) {
    const code = randomSecret();
    const purpose = mode === 'verifyEmail' ? 'verify' : 'reset';
    await repo.insertCode(
      db,
      user.sub,
      purpose,
      hashSecret(code),
      purpose === 'verify' ? VERIFY_CODE_TTL_MS : RESET_CODE_TTL_MS,
    );
    const link = actionLink(publicUrl, mode, code, next);
    await outbox.send({ ...actionMail(user.email, user.lng, mode, link), secrets: [code], link });
  }

  async function issueTokens(
    user: { sub: string; email: string },
    familyId: string = crypto.randomUUID(),
  ): Promise<TokenResponse> {
    const refreshToken = randomSecret();
    await repo.insertRefresh(db, user.sub, familyId, hashSecret(refreshToken), REFRESH_TTL_MS);
    const idToken = await signer.sign({ sub: user.sub, email: user.email, emailVerified: true });
    return { idToken, refreshToken, expiresIn: signer.ttlSeconds };
  }

  return {
    async signUp(input: { email: string; password: string; lng: Language; next?: string | undefined }) {
      if (await repo.findLocalByEmail(db, input.email)) throw identityErrors.emailInUse();
      const passwordHash = await hashPassword(input.password);
      const sub = await repo.insertLocal(db, { email: input.email, passwordHash, lng: input.lng });
      if (!sub) throw identityErrors.emailInUse();
      await sendCode({ sub, email: input.email, lng: input.lng }, 'verifyEmail', input.next);
      return { sub };
    },

    async verifyEmail(code: string) {
      const result = await repo.consumeCode(db, 'verify', hashSecret(code));
      if (result === 'invalid') throw identityErrors.codeInvalid();
      if (result === 'expired') throw identityErrors.codeExpired();
      await repo.markVerified(db, result.sub);
      return { verified: true as const };
    },

    async resendVerification(input: { email: string; lng: Language }) {
      const user = await repo.findLocalByEmail(db, input.email);
      if (user && !user.email_verified) {
        await sendCode({ sub: user.sub, email: user.email, lng: input.lng }, 'verifyEmail');
      }
    },

    async signIn(input: { email: string; password: string }): Promise<TokenResponse> {
      const user = await repo.findLocalByEmail(db, input.email);
      const stored = user?.password_hash ?? (await dummyHash);
      const ok = await verify(stored, input.password).catch(() => false);
      if (!user?.password_hash || !ok) throw identityErrors.invalidCredentials();
      // Only after the right password: the answer then reveals nothing the caller did not know.
      if (!user.email_verified) throw identityErrors.notVerified();
      return issueTokens(user);
    },

    async refresh(refreshToken: string): Promise<TokenResponse> {
      const rotated = await repo.rotateRefresh(db, hashSecret(refreshToken));
      if (typeof rotated === 'string') throw identityErrors.refreshInvalid();
      const user = await repo.findBySub(db, rotated.sub);
      if (!user) throw identityErrors.refreshInvalid();
      return issueTokens(user, rotated.familyId);
    },

    async signOut(refreshToken: string) {
      const family = await repo.familyOf(db, hashSecret(refreshToken));
      if (family) await repo.revokeFamily(db, family);
    },

    async forgotPassword(input: { email: string; lng: Language }) {
      const user = await repo.findLocalByEmail(db, input.email);
      if (user) await sendCode({ sub: user.sub, email: user.email, lng: input.lng }, 'resetPassword');
    },

    async resetPassword(input: { code: string; password: string }) {
      const passwordHash = await hashPassword(input.password);
      const result = await repo.consumeCode(db, 'reset', hashSecret(input.code));
      if (result === 'invalid') throw identityErrors.codeInvalid();
      if (result === 'expired') throw identityErrors.codeExpired();
      await repo.setPassword(db, result.sub, passwordHash);
      // A new password ends every session (the reason to reset may be a stolen one).
      await repo.revokeAllOf(db, result.sub);
      return { reset: true as const, sub: result.sub };
    },

    issueTokens,
  };
}
