import type { EnvironmentConfig, Environments } from '@tempora/contracts';
import { environmentNames, pickEnvironmentName } from '@tempora/contracts/environments';
import { takeEarlyEnvironments } from '../lib/early-fetch.ts';
import { urlParam } from '../lib/url-params.ts';

/**
 * Loads the environment configurations served by the server (`/api/env-config`, so an operator
 * changes them without a rebuild) and picks the one named by the URL parameter `env` (spec §9,
 * default `prod`).
 */
export async function loadEnvironmentConfig(
  location: Pick<Location, 'search' | 'hash'> = window.location,
): Promise<{
  name: ReturnType<typeof pickEnvironmentName>;
  config: EnvironmentConfig;
}> {
  const name = pickEnvironmentName(urlParam('env', location));
  // Asked for already by the boot script on a report page (issue 19); a failure there is tried again.
  const early = await takeEarlyEnvironments()?.catch(() => undefined);
  const environments = early ?? (await fetchEnvironments());
  if (!isEnvironments(environments)) throw new Error('env-config: unexpected answer');
  return { name, config: environments[name] };
}

async function fetchEnvironments(): Promise<unknown> {
  const response = await fetch('/api/env-config', { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`env-config: HTTP ${response.status}`);
  return response.json();
}

const BASES = [
  'apiUrlBase',
  'eventsApiUrlBase',
  'resultsApiUrlBase',
  'userApiUrlBase',
  'confirmationApiUrlBase',
  'trackingApiUrlBase',
] as const;

/**
 * A structural check of the server's answer (the server validates it with zod; the client keeps
 * zod out of its first chunk, product.md: ≤ 200 KB of initial JS).
 */
export function isEnvironments(value: unknown): value is Environments {
  if (typeof value !== 'object' || value === null) return false;
  return environmentNames.every((name) => {
    const env = (value as Record<string, unknown>)[name] as Record<string, unknown> | undefined;
    return (
      typeof env === 'object' &&
      env !== null &&
      BASES.every((base) => typeof env[base] === 'string') &&
      typeof env.mapKey === 'string' &&
      typeof env.blobUrlBase === 'string' &&
      typeof env.realtime === 'object' &&
      env.realtime !== null &&
      typeof (env.realtime as { key?: unknown }).key === 'string'
    );
  });
}
