import crypto from 'node:crypto';
import {
  createLocalJWKSet,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JSONWebKeySet,
  type JWK,
  type JWTPayload,
  jwtVerify,
  SignJWT,
} from 'jose';
import type { Sql } from '../db/database.ts';

/** The audience of our own ID tokens (the web client and this API), carried and checked (issue 13). */
export const ID_TOKEN_AUDIENCE = 'tempora';
/** ID tokens live 15 minutes; the client refreshes before expiry (issue 4). */
export const ID_TOKEN_TTL_SECONDS = 15 * 60;
const ALG = 'ES256';
/** Seconds a token's `exp` and `nbf` may be off (clocks of nodes and clients). */
const CLOCK_TOLERANCE_S = 30;

/** The claims of our ID tokens. */
export interface IdTokenClaims {
  sub: string;
  email: string;
  emailVerified?: boolean;
}

/** Signs and verifies the built-in provider's ES256 ID tokens. */
export interface TokenSigner {
  readonly issuer: string;
  readonly ttlSeconds: number;
  /** The public keys, as served at `/.well-known/jwks.json`. */
  readonly jwks: JSONWebKeySet;
  sign(claims: IdTokenClaims): Promise<string>;
  /** Verifies one of our tokens (signature, `iss`, `aud`, `exp`, `nbf`); throws jose errors otherwise. */
  verify(token: string): Promise<JWTPayload & { sub: string }>;
  /**
   * A 32-byte key for one `purpose` (HKDF-SHA256 of the current private key): every node derives
   * the same, nothing more to configure, and a key rotation renews it.
   */
  deriveKey(purpose: string): Buffer;
}

interface KeyRow {
  kid: string;
  generation: number;
  private_jwk: JWK;
  public_jwk: JWK;
}

/**
 * Loads the signing keys from the database, creating generation 1 once. Every node shares the
 * same keys (several may start at once: the insert is ON CONFLICT DO NOTHING, then all read back
 * whichever won), and a restart keeps tokens valid.
 */
export async function loadSigningKeys(sql: Sql, issuer: string): Promise<TokenSigner> {
  let rows = await sql.query<KeyRow>('SELECT * FROM signing_keys ORDER BY generation DESC');
  if (!rows.length) {
    const { privateKey, publicKey } = await generateKeyPair(ALG, { extractable: true });
    const kid = crypto.randomUUID();
    const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: ALG, use: 'sig' };
    const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: ALG };
    await sql.query(
      `INSERT INTO signing_keys (kid, generation, alg, private_jwk, public_jwk)
       VALUES ($1, 1, $2, $3, $4) ON CONFLICT DO NOTHING`,
      [kid, ALG, JSON.stringify(privateJwk), JSON.stringify(publicJwk)],
    );
    rows = await sql.query<KeyRow>('SELECT * FROM signing_keys ORDER BY generation DESC');
  }
  const current = rows[0];
  if (!current) throw new Error('no signing key');
  const privateKey = await importJWK(current.private_jwk, ALG);
  const jwks: JSONWebKeySet = { keys: rows.map((r) => r.public_jwk) };
  const keySet = createLocalJWKSet(jwks);
  const publicKeys = new Map(
    rows.map((r) => [
      r.kid,
      crypto.createPublicKey({ key: r.public_jwk as crypto.JsonWebKey, format: 'jwk' }),
    ]),
  );
  return {
    issuer,
    ttlSeconds: ID_TOKEN_TTL_SECONDS,
    jwks,
    sign: (claims) =>
      new SignJWT({
        email: claims.email,
        ...(claims.emailVerified === undefined ? {} : { email_verified: claims.emailVerified }),
      })
        .setProtectedHeader({ alg: ALG, kid: current.kid, typ: 'JWT' })
        .setIssuer(issuer)
        .setAudience(ID_TOKEN_AUDIENCE)
        .setSubject(claims.sub)
        .setIssuedAt()
        .setExpirationTime(`${ID_TOKEN_TTL_SECONDS}s`)
        .sign(privateKey),
    deriveKey: (purpose) =>
      Buffer.from(crypto.hkdfSync('sha256', String(current.private_jwk.d), 'tempora', purpose, 32)),
    async verify(token) {
      const fast = await verifyOwn(token, publicKeys, issuer);
      if (fast) return fast;
      const { payload } = await jwtVerify(token, keySet, {
        issuer,
        audience: ID_TOKEN_AUDIENCE,
        algorithms: [ALG],
        clockTolerance: CLOCK_TOLERANCE_S,
        requiredClaims: ['exp'],
      });
      if (typeof payload.sub !== 'string') throw new Error('token without sub');
      return payload as JWTPayload & { sub: string };
    },
  };
}

/**
 * One of our own ES256 ID tokens checked with node:crypto (issue 38, the rush: jose verifies
 * through WebCrypto, 0.29 ms of the main thread per token against 0.08 here; 20,000 runners' first
 * calls). The claims are checked first; the signature then in libuv's thread pool (the callback
 * form of `crypto.verify`), off the thread that serves requests and runs PGlite — the rush's
 * 21,000 checks were 2.7 s of it. It only accepts: a token it cannot vouch for in every respect —
 * header (`alg` ES256, a `kid` of ours, no `crit`), signature, `iss`, `aud`, `exp` (required),
 * `nbf`, `iat`, `sub` — answers null and jose decides, so a refusal is always jose's, as before.
 */
async function verifyOwn(
  token: string,
  keys: ReadonlyMap<string, crypto.KeyObject>,
  issuer: string,
): Promise<(JWTPayload & { sub: string }) | null> {
  const parsed = parseOwn(token, keys, issuer);
  if (!parsed) return null;
  const { signed, key, signature, claims } = parsed;
  const valid = await new Promise<boolean>((resolve) =>
    crypto.verify('sha256', signed, { key, dsaEncoding: 'ieee-p1363' }, signature, (error, ok) =>
      resolve(!error && ok),
    ),
  );
  return valid ? claims : null;
}

/** `verifyOwn`'s checks before the signature's: what to verify, or null. */
function parseOwn(token: string, keys: ReadonlyMap<string, crypto.KeyObject>, issuer: string) {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [h, p, sig] = parts as [string, string, string];
  try {
    const header = JSON.parse(Buffer.from(h, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (header.alg !== ALG || typeof header.kid !== 'string' || 'crit' in header) return null;
    const key = keys.get(header.kid);
    const signature = Buffer.from(sig, 'base64url');
    if (!key || signature.length !== 64) return null;
    const payload = JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as JWTPayload;
    if (!payload || typeof payload !== 'object' || Array.isArray(payload)) return null;
    const now = Math.floor(Date.now() / 1000);
    const audience = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
    if (payload.iss !== issuer || !audience.includes(ID_TOKEN_AUDIENCE)) return null;
    if (typeof payload.exp !== 'number' || payload.exp <= now - CLOCK_TOLERANCE_S) return null;
    if (
      payload.nbf !== undefined &&
      (typeof payload.nbf !== 'number' || payload.nbf > now + CLOCK_TOLERANCE_S)
    )
      return null;
    if (payload.iat !== undefined && typeof payload.iat !== 'number') return null;
    if (typeof payload.sub !== 'string') return null;
    const signed = Buffer.from(`${h}.${p}`, 'ascii');
    return { signed, key, signature, claims: payload as JWTPayload & { sub: string } };
  } catch {
    return null;
  }
}
