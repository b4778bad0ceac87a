import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A push service for tests (issue 40): no browser vendor's push service can be reached here, so a
 * test makes the keys a browser would (a P-256 key pair and a 16-byte auth secret), registers a
 * subscription whose endpoint is this local server, and the server decrypts each message as the
 * browser would (RFC 8291 on RFC 8188's aes128gcm) and checks its VAPID signature (RFC 8292).
 */
export interface ReceivedPush {
  at: number;
  payload: unknown;
  ttl: string | undefined;
  vapidValid: boolean;
  vapidKey: string;
}

const hmac = (key: Buffer, data: Buffer) => crypto.createHmac('sha256', key).update(data).digest();
const b64 = (b: Buffer) => b.toString('base64url');

/** Decrypts an aes128gcm body with the subscription's private key and auth secret (RFC 8291 §3.4). */
export function decryptPush(body: Buffer, ua: crypto.ECDH, authSecret: Buffer): Buffer {
  const salt = body.subarray(0, 16);
  const idlen = body[20]!;
  const asPublic = body.subarray(21, 21 + idlen);
  const record = body.subarray(21 + idlen);
  const ecdhSecret = ua.computeSecret(asPublic);
  const prkKey = hmac(authSecret, ecdhSecret);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), ua.getPublicKey(), asPublic]);
  const ikm = hmac(prkKey, Buffer.concat([keyInfo, Buffer.from([1])]));
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01', 'binary')).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01', 'binary')).subarray(0, 12);
  const decipher = crypto.createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02 followed by zero padding (RFC 8188 §2).
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('no last-record delimiter');
  return padded.subarray(0, end);
}

/**
 * Signatures checked already, by header (an application server reuses its VAPID header for hours,
 * RFC 8292 §2: a push service needs to verify each once; the expiry is checked every time).
 */
const verified = new Map<string, { signed: boolean; aud: string; exp: number; key: string }>();

/** Checks `Authorization: vapid t=<JWT>, k=<key>` (ES256 over the key given, audience, expiry). */
function vapidValid(header: string | undefined, origin: string): { valid: boolean; key: string } {
  const known = header ? verified.get(header) : undefined;
  if (known)
    return { valid: known.signed && known.aud === origin && known.exp * 1000 > Date.now(), key: known.key };
  const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
  if (!m) return { valid: false, key: '' };
  const [h, p, s] = m[1]!.split('.');
  const key = Buffer.from(m[2]!, 'base64url');
  const publicKey = crypto.createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: b64(key.subarray(1, 33)), y: b64(key.subarray(33, 65)) },
    format: 'jwk',
  });
  const signed = crypto.verify(
    'sha256',
    Buffer.from(`${h}.${p}`),
    { key: publicKey, dsaEncoding: 'ieee-p1363' },
    Buffer.from(s!, 'base64url'),
  );
  const claims = JSON.parse(Buffer.from(p!, 'base64url').toString()) as { aud: string; exp: number };
  if (verified.size > 1000) verified.clear();
  verified.set(header!, { signed, aud: claims.aud, exp: claims.exp, key: m[2]! });
  return { valid: signed && claims.aud === origin && claims.exp * 1000 > Date.now(), key: m[2]! };
}

/** A subscription as a browser would make it, and the local push service that receives for it. */
export async function pushReceiver() {
  const ua = crypto.createECDH('prime256v1');
  ua.generateKeys();
  const authSecret = crypto.randomBytes(16);
  const received: ReceivedPush[] = [];
  const errors: string[] = [];
  let answer = 201;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        if (req.headers['content-encoding'] !== 'aes128gcm') throw new Error('not aes128gcm');
        const plain = decryptPush(Buffer.concat(chunks), ua, authSecret);
        const port = (server.address() as AddressInfo).port;
        const vapid = vapidValid(req.headers.authorization, `http://127.0.0.1:${port}`);
        received.push({
          at: Date.now(),
          payload: JSON.parse(plain.toString('utf8')),
          ttl: req.headers.ttl as string | undefined,
          vapidValid: vapid.valid,
          vapidKey: vapid.key,
        });
      } catch (e) {
        errors.push((e as Error).message);
      }
      res.writeHead(answer);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    received,
    errors,
    subscription: (path = '/push/1') => ({
      endpoint: `http://127.0.0.1:${port}${path}`,
      keys: { p256dh: b64(ua.getPublicKey()), auth: b64(authSecret) },
    }),
    answerWith(status: number) {
      answer = status;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
