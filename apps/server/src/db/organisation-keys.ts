/**
 * One namespace per organisation (issue 41) for the keys an organiser chooses: event ids and
 * context keys. They stay unique in the whole database — they are the URLs' keys, and every link
 * already given out keeps working — but a key another organisation holds is no longer refused
 * ("A context with this key exists already" told the organiser that someone else uses it, and made
 * them invent another): the new one gets `requested-xxxxx` (5 random letters or digits), as race
 * ids do (results/setup.ts `raceIdFor`), and the answer names the key kept, never the other
 * organisation's. Only a key the organisation holds itself is refused (the caller's 409).
 */
import crypto from 'node:crypto';
import type { Sql } from './database.ts';

const OWNER: Record<'event' | 'context', string> = {
  event: 'SELECT organisation_id AS org FROM events WHERE id = $1',
  context:
    'SELECT e.organisation_id AS org FROM contexts c JOIN events e ON e.id = c.event_id WHERE c.db = $1',
};

/**
 * The key to store for `requested` in `organisationId`'s namespace: `requested` when free, null
 * when the organisation holds it already, else `requested-xxxxx` (free, at most 64 characters).
 */
export async function organisationKey(
  sql: Sql,
  kind: 'event' | 'context',
  requested: string,
  organisationId: string,
): Promise<string | null> {
  const owner = async (key: string) => (await sql.query<{ org: string }>(OWNER[kind], [key]))[0]?.org;
  const held = await owner(requested);
  if (held === organisationId) return null;
  if (held === undefined) return requested;
  for (;;) {
    const suffix = [...crypto.randomBytes(5)].map((b) => (b % 36).toString(36)).join('');
    const candidate = `${requested.slice(0, 58)}-${suffix}`;
    if ((await owner(candidate)) === undefined) return candidate;
  }
}
