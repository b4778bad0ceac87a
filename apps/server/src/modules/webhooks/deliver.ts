import http from 'node:http';
import https from 'node:https';
import { type EgressPolicy, guardedLookup } from '../../lib/egress/policy.ts';
import { assertDeliverable } from '../../lib/egress/url.ts';

/** What one delivery attempt came to: the receiver's answer code, or why there was none. */
export interface Attempt {
  status: number | null;
  error: string | null;
}

/**
 * POSTs one webhook body. Redirects are never followed (a 3xx is a failed attempt: a receiver
 * cannot bounce the request to an internal address). The egress policy (lib/egress) checks the
 * address before connecting (an IP literal) or as it is resolved (`guardedLookup`: DNS rebinding).
 */
export function postWebhook(
  rawUrl: string,
  headers: Record<string, string>,
  body: string,
  options: { egress: EgressPolicy; timeoutMs: number },
): Promise<Attempt> {
  let url: URL;
  try {
    url = assertDeliverable(rawUrl, options.egress);
  } catch (e) {
    return Promise.resolve({ status: null, error: `refused: ${(e as Error).message}` });
  }
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<Attempt>((resolve) => {
    const request = client.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        signal: AbortSignal.timeout(options.timeoutMs),
        lookup: guardedLookup(options.egress),
        agent: false,
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode ?? null, error: null }));
        response.on('error', () => resolve({ status: response.statusCode ?? null, error: null }));
      },
    );
    request.on('error', (e: NodeJS.ErrnoException) => {
      const error =
        e.name === 'AbortError'
          ? 'timeout'
          : e.code === 'EADDRREFUSED'
            ? `refused: ${e.message}`
            : String(e.message).slice(0, 300);
      resolve({ status: null, error });
    });
    request.end(body);
  });
}
