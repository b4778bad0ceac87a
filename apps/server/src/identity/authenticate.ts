import { createRemoteJWKSet, decodeJwt, type JWTPayload, jwtVerify } from 'jose';
import type { Database } from '../db/database.ts';
import { AppError } from '../errors.ts';
import type { AuthUser } from '../plugins/auth-context.ts';
import type { TokenSigner } from './keys.ts';
import { identityRepository as repo, type UserWithMemberships } from './repository.ts';

/** Asymmetric algorithms accepted from external issuers (never `none`, never HMAC). */
const VERIFIED_CACHE_SIZE = 10_000;
/** The most users one statement reads (see `userOf`). */
const USER_BATCH = 256;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const EXTERNAL_ALGS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'EdDSA'];

export const tokenInvalid = (message = 'The ID token is invalid or expired') =>
  new AppError(401, 'TOKEN_INVALID', message);

export interface AuthenticatorOptions {
  database: Database;
  signer: TokenSigner;
  /** Trusted external issuers (no trailing slash), each with the audiences its tokens must name. */
  trustedIssuers: { issuer: string; audiences: string[] }[];
  platformStaffEmails: string[];
  confirmationAccountEmail: string;
}

/**
 * Turns a bearer ID token into the caller: our own tokens are checked against our keys; a token
 * from a trusted issuer against that issuer's JWKS (`{issuer}/.well-known/jwks.json`, cached and
 * refreshed by jose on unknown `kid`), its user created on first sight under `issuer|sub`.
 * Anything else (untrusted issuer, bad signature, expired, `alg: none`) is TOKEN_INVALID.
 */
export function createAuthenticator(options: AuthenticatorOptions) {
  const { database, signer } = options;
  const staff = new Set(options.platformStaffEmails);
  const remote = new Map(
    options.trustedIssuers.map(({ issuer, audiences }) => [
      issuer,
      {
        audiences,
        jwks: createRemoteJWKSet(new URL(`${issuer}/.well-known/jwks.json`), {
          timeoutDuration: 5000,
          cooldownDuration: 30_000,
        }),
      },
    ]),
  );

  async function verifyExternal(token: string, iss: string): Promise<{ sub: string; email: string }> {
    const trusted = remote.get(iss.replace(/\/+$/, ''));
    if (!trusted) throw tokenInvalid('The ID token comes from an untrusted issuer');
    let payload: JWTPayload;
    try {
      // Issue 13: a trusted issuer also mints tokens for other applications; only those naming
      // our audience are ours. `exp` is required; jose checks `nbf` and `iat` when present.
      ({ payload } = await jwtVerify(token, trusted.jwks, {
        issuer: iss,
        audience: trusted.audiences,
        algorithms: EXTERNAL_ALGS,
        clockTolerance: 30,
        requiredClaims: ['exp', 'sub'],
      }));
    } catch {
      throw tokenInvalid();
    }
    if (typeof payload.sub !== 'string' || !payload.sub) throw tokenInvalid();
    const email = typeof payload.email === 'string' ? payload.email.trim().toLowerCase() : '';
    // The address counts (roles granted by e-mail) only when the issuer says it verified it.
    const verified = email !== '' && payload.email_verified === true;
    const key = `${iss}|${payload.sub}`;
    const known = await repo.findExternal(database, key);
    if (known && known.email === email && known.email_verified === verified) return known;
    const sub = await repo.upsertExternal(database, key, email, verified);
    return { sub, email };
  }

  // Verified tokens → their claims until they expire: a client sends the same token on every call
  // for 15 minutes, and an ES256 verification costs ~0.4 ms (bench/identity.bench.ts). The user
  // and roles are still read on every call, so a role change applies at once.
  const verified = new Map<string, { iss: string; sub: string; exp: number }>();
  const remember = (token: string, iss: string, sub: string, exp: unknown) => {
    if (typeof exp !== 'number') return;
    if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value as string);
    verified.set(token, { iss, sub, exp });
  };

  async function verifyToken(token: string): Promise<{ iss: string; sub: string }> {
    const cached = verified.get(token);
    if (cached) {
      if (cached.exp > Date.now() / 1000) return cached;
      verified.delete(token);
    }
    let iss: string | undefined;
    let exp: unknown;
    try {
      ({ iss, exp } = decodeJwt(token));
    } catch {
      throw tokenInvalid();
    }
    if (!iss) throw tokenInvalid();
    let sub: string;
    if (iss === signer.issuer) {
      try {
        sub = (await signer.verify(token)).sub;
      } catch {
        throw tokenInvalid();
      }
    } else {
      sub = (await verifyExternal(token, iss)).sub;
    }
    remember(token, iss, sub, exp);
    return { iss, sub };
  }

  /**
   * Users read in batches (issue 38, the registration rush): the lookups asked while one batch
   * waits for the database (on PGlite, its turn behind the other requests' statements) go in the
   * next, one statement for up to `USER_BATCH` users. Each lookup is still made after its request
   * arrived: a role change or a deleted account counts at once, as before.
   */
  type Waiter = { resolve(user: UserWithMemberships | undefined): void; reject(e: unknown): void };
  const waiting = new Map<string, Waiter[]>();
  let reading = false;
  function userOf(sub: string): Promise<UserWithMemberships | undefined> {
    // Only a uuid goes in a batch (one bad value would fail the batch's cast for all).
    if (!UUID.test(sub)) return Promise.resolve(undefined);
    return new Promise((resolve, reject) => {
      const list = waiting.get(sub) ?? [];
      list.push({ resolve, reject });
      waiting.set(sub, list);
      if (!reading) void readUsers();
    });
  }
  async function readUsers() {
    reading = true;
    try {
      while (waiting.size) {
        let batch: (readonly [string, Waiter[]])[] = [];
        try {
          // The batch is taken at the statement's turn: the lookups asked while it waited go in it.
          const users = await database.atTurn((sql) => {
            const subs = [...waiting.keys()].slice(0, USER_BATCH);
            batch = subs.map((sub) => [sub, waiting.get(sub) ?? []] as const);
            for (const sub of subs) waiting.delete(sub);
            return repo.withMembershipsMany(sql, subs);
          });
          for (const [sub, list] of batch) for (const w of list) w.resolve(users.get(sub));
        } catch (error) {
          // The statement never got its turn (the database is closed or unreachable): the lookups
          // waiting fail with it, rather than being tried again for ever.
          if (!batch.length) {
            batch = [...waiting];
            waiting.clear();
          }
          for (const [, list] of batch) for (const w of list) w.reject(error);
        }
      }
    } finally {
      reading = false;
    }
  }

  return {
    /** The caller of a bearer token; throws TOKEN_INVALID (401). */
    async authenticate(token: string): Promise<AuthUser> {
      const { iss, sub } = await verifyToken(token);
      // Not a uuid: cannot be one of our users (and would make the uuid comparison fail).
      if (!/^[0-9a-f-]{36}$/i.test(sub)) throw tokenInvalid();
      const user = await userOf(sub);
      if (!user) throw tokenInvalid('The account of this token no longer exists');
      // Roles granted by e-mail need a verified address (an external issuer may not verify it).
      const byEmail = user.email_verified ? user.email : '';
      return {
        sub: user.sub,
        email: user.email,
        issuer: iss,
        isPlatformStaff: user.platform_staff || staff.has(byEmail),
        isConfirmationAccount: byEmail !== '' && byEmail === options.confirmationAccountEmail,
        memberships: user.memberships,
      };
    },
  };
}
