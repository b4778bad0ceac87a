import type { LookupAddress, LookupOptions } from 'node:dns';
import dns from 'node:dns';
import net from 'node:net';

/**
 * The server's one egress policy (issue 25): every connection it opens on a user's behalf — an
 * organiser's webhook, a RaceResult or Wiclax device — goes only where this allows. Server-side
 * request forgery (OWASP SSRF Prevention Cheat Sheet): a user's address must never make the
 * server reach itself, a cloud metadata service or a network its operator has not opened. The
 * address is checked when it is registered and again when connecting, on the very address
 * connected to (a name may resolve elsewhere by then: DNS rebinding).
 */

/** Why an address is not public (IANA special-purpose registries, RFC 6890). */
type Kind =
  | 'loopback'
  | 'private'
  | 'metadata'
  | 'link-local'
  | 'unspecified'
  | 'multicast'
  | 'reserved'
  | 'ipv4-in-ipv6';

const LABEL: Record<Kind, string> = {
  loopback: 'the server itself (loopback)',
  private: 'a private address',
  metadata: 'a cloud metadata service',
  'link-local': 'a link-local address',
  unspecified: 'the unspecified address (it reaches the server itself)',
  multicast: 'a multicast or broadcast address',
  reserved: 'a reserved address, not on the internet',
  'ipv4-in-ipv6': 'an IPv6 form carrying an IPv4 address (write the IPv4 address itself)',
};

/** Ranges, most specific first (the first match names the kind). */
const RANGES4: [string, number, Kind][] = [
  ['100.100.100.200', 32, 'metadata'], // Alibaba Cloud metadata (inside 100.64.0.0/10)
  ['169.254.169.254', 32, 'metadata'], // AWS, GCP, Azure, OpenStack metadata
  ['0.0.0.0', 8, 'unspecified'], // "this network": 0.0.0.0 reaches the local host
  ['127.0.0.0', 8, 'loopback'],
  ['10.0.0.0', 8, 'private'], // RFC 1918
  ['172.16.0.0', 12, 'private'], // RFC 1918
  ['192.168.0.0', 16, 'private'], // RFC 1918
  ['100.64.0.0', 10, 'private'], // carrier-grade NAT (RFC 6598): a timer's 4G router
  ['169.254.0.0', 16, 'link-local'],
  ['192.0.0.0', 24, 'reserved'], // IETF protocol assignments
  ['192.0.2.0', 24, 'reserved'], // documentation
  ['192.88.99.0', 24, 'reserved'], // 6to4 relay anycast
  ['198.18.0.0', 15, 'reserved'], // benchmarking
  ['198.51.100.0', 24, 'reserved'], // documentation
  ['203.0.113.0', 24, 'reserved'], // documentation
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'multicast'], // reserved, 255.255.255.255 broadcast
];
const RANGES6: [string, number, Kind][] = [
  ['fd00:ec2::254', 128, 'metadata'], // AWS metadata over IPv6 (inside fc00::/7)
  ['::1', 128, 'loopback'],
  ['::', 128, 'unspecified'],
  // Forms that carry an IPv4 address are refused whole, whichever address they carry: a device or
  // receiver has a plain IPv4 or IPv6 address.
  ['::', 96, 'ipv4-in-ipv6'], // deprecated IPv4-compatible ::a.b.c.d
  ['::ffff:0:0', 96, 'ipv4-in-ipv6'], // IPv4-mapped (::ffff:127.0.0.1)
  ['64:ff9b::', 96, 'ipv4-in-ipv6'], // NAT64 (RFC 6052)
  ['64:ff9b:1::', 48, 'ipv4-in-ipv6'], // local-use NAT64 (RFC 8215)
  ['2002::', 16, 'ipv4-in-ipv6'], // 6to4
  ['100::', 64, 'reserved'], // discard
  ['2001::', 23, 'reserved'], // IETF protocol assignments (Teredo and others)
  ['2001:db8::', 32, 'reserved'], // documentation
  ['fc00::', 7, 'private'], // unique local (RFC 4193)
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'link-local'], // site-local (deprecated)
  ['ff00::', 8, 'multicast'],
];

function rangeList(ranges: [string, number, Kind][], family: 'ipv4' | 'ipv6') {
  return ranges.map(([address, bits, kind]) => {
    const list = new net.BlockList();
    list.addSubnet(address, bits, family);
    return { address, bits, kind, list };
  });
}
const lists = { 4: rangeList(RANGES4, 'ipv4'), 6: rangeList(RANGES6, 'ipv6') };

/** The special range an IP address is in (null: a public address, or not an IP address). */
function rangeOf(address: string) {
  const family = net.isIP(address);
  if (family !== 4 && family !== 6) return null;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  return lists[family].find((r) => r.list.check(address, type)) ?? null;
}

/** Whether an IP address (v4 or v6, without brackets) is a public internet address. */
export function isPublicAddress(address: string): boolean {
  return net.isIP(address) !== 0 && rangeOf(address) === null;
}

/** Where an egress policy lets connections go, beyond the public internet. */
export interface EgressPolicy {
  /** Every address, whatever it is (`WEBHOOK_ALLOW_PRIVATE`: tests, a closed network). */
  allowAll?: boolean;
  /** The loopback addresses (`DEVICE_ALLOW_LOOPBACK`: local simulators in development). */
  allowLoopback?: boolean;
  /** Private networks the operator opened (`DEVICE_NETWORKS`); loopback and the rest never. */
  networks?: net.BlockList;
  /** Said of a private address outside `networks` ("not in DEVICE_NETWORKS"). */
  privateRefusal?: string;
}

/** Why an address or host may not be connected to. */
export class RefusedAddress extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefusedAddress';
  }
}

/** Why the policy refuses an IP address, or null when it allows it. */
export function refusalOf(address: string, policy: EgressPolicy): string | null {
  if (!net.isIP(address)) return `${address} is not an IP address`;
  const range = rangeOf(address);
  if (!range || policy.allowAll) return null;
  if (range.kind === 'loopback' && policy.allowLoopback) return null;
  if (range.kind === 'private' && policy.networks?.check(address, net.isIPv4(address) ? 'ipv4' : 'ipv6'))
    return null;
  const note = range.kind === 'private' ? `, ${policy.privateRefusal ?? 'not a public address'}` : '';
  return `${address} is ${LABEL[range.kind]}${note}`;
}

/**
 * Whether a CIDR network lies inside one private range (RFC 1918, RFC 6598, unique local): the
 * only networks an operator may open to devices. Loopback, link-local and metadata never are.
 */
export function isPrivateNetwork(address: string, bits: number): boolean {
  const range = rangeOf(address);
  return !!range && range.kind === 'private' && range.bits <= bits;
}

/**
 * A host as written (a name, or an IP address in any spelling) as the address or name a
 * connection would use: the WHATWG host parser rewrites `2130706433`, `0x7f000001`,
 * `017700000001`, `0x7f.1` and `127.1` to `127.0.0.1` (the system resolver would too, through
 * inet_aton) and compresses IPv6. Brackets are dropped.
 */
export function canonicalHost(raw: string): { ip: string } | { name: string } {
  const trimmed = raw.trim().replace(/^\[(.*)\]$/, '$1');
  let host: string;
  try {
    host = new URL(`http://${net.isIPv6(trimmed) ? `[${trimmed}]` : trimmed}/`).hostname;
  } catch {
    throw new RefusedAddress(`${raw} is not a host name or IP address`);
  }
  host = host.replace(/^\[(.*)\]$/, '$1');
  if (net.isIP(host)) return { ip: host };
  return { name: host.toLowerCase().replace(/\.$/, '') };
}

/** RFC 6761: `localhost` and its subdomains are the local host whatever a resolver says. */
function isLocalhostName(raw: string): boolean {
  const name = raw.toLowerCase().replace(/\.+$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/** Every address a name resolves to (the system resolver, as a connection would use). */
async function resolveAll(name: string): Promise<LookupAddress[]> {
  try {
    const found = await dns.promises.lookup(name, { all: true, verbatim: true });
    if (found.length) return found;
  } catch {
    // answered below
  }
  throw new RefusedAddress(`${name} does not resolve`);
}

/** The first address refused among those a name resolves to, as a reason (null: all allowed). */
function refusalOfAll(name: string, addresses: LookupAddress[], policy: EgressPolicy): string | null {
  for (const a of addresses) {
    const why = refusalOf(a.address, policy);
    if (why) return `${name} resolves to ${why}`;
  }
  return null;
}

/**
 * The address to connect to for a host, checked: an IP literal as it is, a name resolved now and
 * refused if any of its addresses is (the check is on the very address then connected to: DNS
 * rebinding). Throws `RefusedAddress` with the reason. Used at registration (the answer is
 * dropped) and at every connection.
 */
export async function resolveAllowed(host: string, policy: EgressPolicy): Promise<LookupAddress> {
  const canonical = canonicalHost(host);
  if ('ip' in canonical) {
    const why = refusalOf(canonical.ip, policy);
    if (why) throw new RefusedAddress(why);
    return { address: canonical.ip, family: net.isIP(canonical.ip) };
  }
  const { name } = canonical;
  if (!policy.allowAll && !policy.allowLoopback && isLocalhostName(name))
    throw new RefusedAddress(`${name} is ${LABEL.loopback}`);
  const addresses = await resolveAll(name);
  const why = refusalOfAll(name, addresses, policy);
  if (why) throw new RefusedAddress(why);
  return addresses[0]!;
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for `http.request` and `net.connect` that refuses a name resolving to any address
 * the policy refuses: the socket then connects to the addresses checked here (DNS rebinding).
 */
export function guardedLookup(policy: EgressPolicy) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    const fail = (message: string) => {
      const refused: NodeJS.ErrnoException = new RefusedAddress(message);
      refused.code = 'EADDRREFUSED';
      callback(refused, []);
    };
    if (!policy.allowAll && !policy.allowLoopback && isLocalhostName(hostname)) {
      fail(`${hostname} is ${LABEL.loopback}`);
      return;
    }
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      if (!addresses.length) return fail(`${hostname} does not resolve`);
      const why = refusalOfAll(hostname, addresses, policy);
      if (why) return fail(why);
      if (options.all) return callback(null, addresses);
      const first = addresses[0]!;
      callback(null, first.address, first.family);
    });
  };
}
