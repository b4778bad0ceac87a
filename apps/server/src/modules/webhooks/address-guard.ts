import type { LookupAddress, LookupOptions } from 'node:dns';
import dns from 'node:dns';
import net from 'node:net';

/**
 * Server-side request forgery (OWASP SSRF Prevention Cheat Sheet): an organiser's webhook URL must
 * never make the server call itself, its private network or a cloud metadata service. Checked at
 * registration and again at delivery, on the address actually connected to (a name may resolve
 * elsewhere by then: DNS rebinding).
 */

/**
 * Ranges that are not the public internet (IANA special-purpose registries, RFC 6890). Two lists:
 * a BlockList matches an IPv4 address against its IPv6 rules as `::ffff:a.b.c.d`.
 */
const blocked4 = new net.BlockList();
const blocked6 = new net.BlockList();
for (const [address, bits] of [
  ['0.0.0.0', 8], // "this network", 0.0.0.0 reaches the local host
  ['10.0.0.0', 8], // RFC 1918
  ['100.64.0.0', 10], // carrier-grade NAT (RFC 6598)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12], // RFC 1918
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // RFC 1918
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  blocked4.addSubnet(address, bits, 'ipv4');
for (const [address, bits] of [
  ['::', 96], // unspecified, loopback (::1) and the deprecated IPv4-compatible ::a.b.c.d
  // Forms that carry an IPv4 address are refused whole, whichever address they carry: a receiver
  // has a plain IPv4 or IPv6 address.
  ['::ffff:0:0', 96], // IPv4-mapped (::ffff:127.0.0.1)
  ['64:ff9b::', 96], // NAT64 (RFC 6052)
  ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215)
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments (Teredo and others)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4
  ['fc00::', 7], // unique local (RFC 4193)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const)
  blocked6.addSubnet(address, bits, 'ipv6');

/** Whether an IP address (v4 or v6, without brackets) is a public internet address. */
export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return false;
  return family === 4 ? !blocked4.check(address, 'ipv4') : !blocked6.check(address, 'ipv6');
}

/** Why a URL may not receive webhooks, or null when it may. */
export class RefusedUrl extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefusedUrl';
  }
}

/** The host of a parsed URL as an IP literal (brackets dropped), or null for a name. */
function ipLiteral(url: URL): string | null {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return net.isIP(host) ? host : null;
}

/**
 * The URL's scheme and form, before any address: http(s) only, no user name or password. The
 * WHATWG parser has already rewritten other spellings of an address (`http://2130706433/`,
 * `0x7f.1`, `[::ffff:127.0.0.1]`) to their canonical form, which is what gets checked.
 */
function parse(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new RefusedUrl('not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RefusedUrl('only http and https');
  if (url.username || url.password) throw new RefusedUrl('no user name or password in the URL');
  return url;
}

/** All addresses a name resolves to (the system resolver, as a connection would use). */
async function resolve(hostname: string): Promise<LookupAddress[]> {
  return dns.promises.lookup(hostname, { all: true, verbatim: true });
}

/**
 * Checks a webhook URL at registration: scheme, credentials, and — unless private addresses are
 * allowed (`WEBHOOK_ALLOW_PRIVATE`, tests and closed networks) — every address its host is or
 * resolves to. Throws `RefusedUrl` with the reason.
 */
export async function assertPublicUrl(raw: string, allowPrivate: boolean): Promise<void> {
  const url = parse(raw);
  if (allowPrivate) return;
  const literal = ipLiteral(url);
  if (literal) {
    if (!isPublicAddress(literal)) throw new RefusedUrl(`${literal} is not a public address`);
    return;
  }
  const name = url.hostname.toLowerCase().replace(/\.$/, '');
  // RFC 6761: `localhost` and its subdomains are the local host whatever a resolver says.
  if (name === 'localhost' || name.endsWith('.localhost')) throw new RefusedUrl(`${name} is the local host`);
  let addresses: LookupAddress[];
  try {
    addresses = await resolve(name);
  } catch {
    throw new RefusedUrl(`${name} does not resolve`);
  }
  const internal = addresses.find((a) => !isPublicAddress(a.address));
  if (internal) throw new RefusedUrl(`${name} resolves to ${internal.address}, not a public address`);
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for `http.request` that refuses a name resolving to any non-public address: the
 * check is made on the very addresses the socket then connects to, so a name that changed since
 * registration (DNS rebinding) cannot reach the private network.
 */
export function guardedLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const internal = addresses.find((a) => !isPublicAddress(a.address));
    if (internal || !addresses.length) {
      const refused: NodeJS.ErrnoException = new RefusedUrl(
        `${hostname} resolves to ${internal?.address ?? 'nothing'}, not a public address`,
      );
      refused.code = 'EADDRREFUSED';
      return callback(refused, []);
    }
    if (options.all) return callback(null, addresses);
    const first = addresses[0]!;
    callback(null, first.address, first.family);
  });
}

/**
 * Checks a URL at delivery, before connecting: an IP literal is checked here (no lookup happens
 * for one); a name is checked by `guardedLookup` as the connection resolves it.
 */
export function assertDeliverable(raw: string, allowPrivate: boolean): URL {
  const url = parse(raw);
  if (allowPrivate) return url;
  const literal = ipLiteral(url);
  if (literal && !isPublicAddress(literal)) throw new RefusedUrl(`${literal} is not a public address`);
  return url;
}
