import net from 'node:net';
import { type EgressPolicy, RefusedAddress, refusalOf, resolveAllowed } from './policy.ts';

/**
 * HTTP(S) URLs under the egress policy (`policy.ts`), for webhooks: the scheme and form first,
 * then the address. The WHATWG parser has already rewritten other spellings of an address
 * (`http://2130706433/`, `0x7f.1`, `[::ffff:127.0.0.1]`) to their canonical form, which is what
 * gets checked.
 */
function parse(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new RefusedAddress('not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RefusedAddress('only http and https');
  if (url.username || url.password) throw new RefusedAddress('no user name or password in the URL');
  return url;
}

/** The host of a parsed URL as an IP literal (brackets dropped), or null for a name. */
function ipLiteral(url: URL): string | null {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return net.isIP(host) ? host : null;
}

/**
 * Checks a URL at registration: http(s) only, no credentials, and every address its host is or
 * resolves to allowed by the policy. Throws `RefusedAddress` with the reason.
 */
export async function assertUrlAllowed(raw: string, policy: EgressPolicy): Promise<void> {
  const url = parse(raw);
  if (!policy.allowAll) await resolveAllowed(url.hostname, policy);
}

/**
 * Checks a URL before connecting: an IP literal here (no lookup happens for one); a name is
 * checked by `guardedLookup` as the connection resolves it.
 */
export function assertDeliverable(raw: string, policy: EgressPolicy): URL {
  const url = parse(raw);
  const literal = ipLiteral(url);
  const why = literal && refusalOf(literal, policy);
  if (why) throw new RefusedAddress(why);
  return url;
}
