import fs from 'node:fs';
import { type EnvironmentConfig, type Environments, environmentsSchema } from '@tempora/contracts';
import type { Config } from '../../config/config.ts';

/**
 * The default environment configurations: every base URL points at this same server (relative
 * URLs), the realtime key is this server's, the realtime host is the page's own.
 */
export function defaultEnvironments(config: Config): Environments {
  const one: EnvironmentConfig = {
    apiUrlBase: '/api/',
    eventsApiUrlBase: '/api/',
    resultsApiUrlBase: '/api/',
    userApiUrlBase: '/api/',
    confirmationApiUrlBase: '/api/',
    trackingApiUrlBase: '/api/',
    realtime: { key: config.REALTIME_KEY, cluster: 'eu', host: null, port: null, forceTLS: null },
    mapKey: config.MAP_KEY,
    // No blob host by default: flags show their code (spec §7: an external blob storage host).
    blobUrlBase: '',
  };
  return { dev: one, prod: one, cis: one };
}

/**
 * Loads the environment configurations: the defaults, deep-merged with the operator's JSON file
 * (`ENV_CONFIG_FILE`) so an operator changes URLs without rebuilding the client. The file is read
 * and validated at start; a bad file stops the start with the variable's name.
 */
export function loadEnvironments(config: Config): Environments {
  const defaults = defaultEnvironments(config);
  if (!config.ENV_CONFIG_FILE) return defaults;
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(config.ENV_CONFIG_FILE, 'utf8'));
  } catch (error) {
    throw new Error(`ENV_CONFIG_FILE: cannot read ${config.ENV_CONFIG_FILE}: ${(error as Error).message}`);
  }
  const overrides = (raw ?? {}) as Partial<Record<keyof Environments, Partial<EnvironmentConfig>>>;
  const merged = Object.fromEntries(
    (Object.keys(defaults) as (keyof Environments)[]).map((name) => {
      const o = overrides[name] ?? {};
      return [
        name,
        { ...defaults[name], ...o, realtime: { ...defaults[name].realtime, ...(o.realtime ?? {}) } },
      ];
    }),
  );
  const result = environmentsSchema.safeParse(merged);
  if (!result.success) {
    const where = result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`ENV_CONFIG_FILE: invalid environment configuration (${where})`);
  }
  return result.data;
}
