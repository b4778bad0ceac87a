import fs from 'node:fs';
import { prepareTemplate } from './server.ts';

/**
 * Once before the journeys: the migrated, empty data directory every journey's server starts from
 * (server.ts `prepareTemplate`). Its path reaches the workers through the environment; removed at
 * the end.
 */
export default async function globalSetup(): Promise<() => void> {
  const dir = await prepareTemplate();
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
