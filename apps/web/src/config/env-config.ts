import { type EnvironmentConfig, environmentsSchema, pickEnvironmentName } from '@tempora/contracts';

/**
 * Loads the environment configurations served by the server (`/api/env-config`, so an operator
 * changes them without a rebuild) and picks the one named by the URL parameter `env` (spec §9).
 */
export async function loadEnvironmentConfig(search = window.location.search): Promise<{
  name: ReturnType<typeof pickEnvironmentName>;
  config: EnvironmentConfig;
}> {
  const hashQuery = window.location.hash.includes('?') ? window.location.hash.split('?')[1] : '';
  const params = new URLSearchParams(search || hashQuery);
  const name = pickEnvironmentName(params.get('env'));
  const response = await fetch('/api/env-config', { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`env-config: HTTP ${response.status}`);
  const environments = environmentsSchema.parse(await response.json());
  return { name, config: environments[name] };
}
