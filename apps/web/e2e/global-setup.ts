import fs from 'node:fs';
import { preparedTemplate, prepareTemplate } from './server.ts';

/**
 * Once before the journeys: the migrated, empty data directory every journey's server starts from
 * (server.ts `prepareTemplate`). Its path reaches the workers through the environment; removed at
 * the end. One made beforehand (TEMPORA_E2E_TEMPLATE_DIR: `npm test` makes it while Vitest runs,
 * prepare-template.ts) is used as it is and left to whoever made it.
 */
export default async function globalSetup(): Promise<() => void> {
  if (preparedTemplate()) return () => {};
  const dir = await prepareTemplate();
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
