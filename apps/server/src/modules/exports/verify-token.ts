import crypto from 'node:crypto';

/**
 * Certificate verification tokens: `{trackingKey}.{netMs}.{issuedAt}.{mac}` (numbers in base 36),
 * the MAC being HMAC-SHA256 under a server secret (signing_secrets `certificates`), truncated to
 * 128 bits. Only the server can make one; changing any character (another runner, another time)
 * fails the check. The token carries the time printed, so the verification page can tell when
 * the result changed since (a correction) — and a certificate edited by hand shows a time the
 * page contradicts.
 */
export interface CertificateClaim {
  trackingKey: string;
  netMs: number;
  issuedAt: number;
}

const mac = (secret: Buffer, payload: string) =>
  crypto.createHmac('sha256', secret).update(`tempora-certificate:v1:${payload}`).digest().subarray(0, 16);

export function signCertificate(secret: Buffer, claim: CertificateClaim): string {
  const payload = `${claim.trackingKey}.${Math.max(0, Math.round(claim.netMs)).toString(36)}.${claim.issuedAt.toString(36)}`;
  return `${payload}.${mac(secret, payload).toString('base64url')}`;
}

/** The claim of a genuine token, or null (malformed or tampered). */
export function verifyCertificate(secret: Buffer, token: string): CertificateClaim | null {
  const parts = token.split('.');
  if (parts.length !== 4) return null;
  const [trackingKey, net, issued, signature] = parts as [string, string, string, string];
  if (
    !/^[A-Za-z0-9_-]{1,64}$/.test(trackingKey) ||
    !/^[0-9a-z]{1,12}$/.test(net) ||
    !/^[0-9a-z]{1,12}$/.test(issued)
  )
    return null;
  // Compared as text: base64 has several spellings of the same bytes (the last character's
  // spare bits), and any changed character must fail.
  const given = Buffer.from(signature);
  const expected = Buffer.from(mac(secret, `${trackingKey}.${net}.${issued}`).toString('base64url'));
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return null;
  return { trackingKey, netMs: Number.parseInt(net, 36), issuedAt: Number.parseInt(issued, 36) };
}
