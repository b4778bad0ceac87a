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
      const { payload } = await jwtVerify(token, keySet, {
        issuer,
        audience: ID_TOKEN_AUDIENCE,
        algorithms: [ALG],
        clockTolerance: 30,
        requiredClaims: ['exp'],
      });
      if (typeof payload.sub !== 'string') throw new Error('token without sub');
      return payload as JWTPayload & { sub: string };
    },
  };
}
