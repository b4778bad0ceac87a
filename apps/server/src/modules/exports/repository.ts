import type { CertificateTemplate, ExportSettings } from '@tempora/contracts';
import type { Sql } from '../../db/database.ts';

/** An event as exports need it (branding for page headers). */
export interface EventRow {
  id: string;
  organisationId: string;
  name: string;
  place: string;
  startDate: string;
  /** IANA zone: times of day printed in documents are the event's (issue 14). */
  timeZone: string;
  branding: { color?: string; tagline?: string };
  /** Set when the organiser uploaded a logo (console), printed on lists. */
  logoVersion: string | null;
}

export async function findEvent(sql: Sql, eventId: string): Promise<EventRow | undefined> {
  const [row] = await sql.query<EventRow>(
    `SELECT id, organisation_id AS "organisationId", name, place, start_date::text AS "startDate",
            time_zone AS "timeZone", branding, logo_version AS "logoVersion"
     FROM events WHERE id = $1`,
    [eventId],
  );
  return row;
}

export async function settingsOf(sql: Sql, eventId: string): Promise<ExportSettings> {
  const [row] = await sql.query<{ spectator_exports: boolean }>(
    'SELECT spectator_exports FROM export_settings WHERE event_id = $1',
    [eventId],
  );
  return { spectatorExports: row?.spectator_exports ?? false };
}

export async function saveSettings(sql: Sql, eventId: string, settings: ExportSettings): Promise<void> {
  await sql.query(
    `INSERT INTO export_settings (event_id, spectator_exports) VALUES ($1, $2)
     ON CONFLICT (event_id) DO UPDATE SET spectator_exports = EXCLUDED.spectator_exports, updated_at = now()`,
    [eventId, settings.spectatorExports],
  );
}

export interface TemplateRow {
  template: CertificateTemplate;
  hasBackground: boolean;
}

export async function templateOf(sql: Sql, eventId: string): Promise<TemplateRow | undefined> {
  const [row] = await sql.query<TemplateRow>(
    `SELECT template, background IS NOT NULL AS "hasBackground" FROM certificate_templates WHERE event_id = $1`,
    [eventId],
  );
  return row;
}

export async function saveTemplate(sql: Sql, eventId: string, template: CertificateTemplate): Promise<void> {
  await sql.query(
    `INSERT INTO certificate_templates (event_id, template) VALUES ($1, $2::jsonb)
     ON CONFLICT (event_id) DO UPDATE SET template = EXCLUDED.template, updated_at = now()`,
    [eventId, JSON.stringify(template)],
  );
}

export async function backgroundOf(
  sql: Sql,
  eventId: string,
): Promise<{ bytes: Buffer; type: string } | undefined> {
  const [row] = await sql.query<{ background: string | null; background_type: string | null }>(
    'SELECT background, background_type FROM certificate_templates WHERE event_id = $1',
    [eventId],
  );
  if (!row?.background || !row.background_type) return undefined;
  return { bytes: Buffer.from(row.background, 'base64'), type: row.background_type };
}

/** Sets (or with null clears) the background; the template row is made with `fallback` if absent. */
export async function saveBackground(
  sql: Sql,
  eventId: string,
  image: { bytes: Buffer; type: string } | null,
  fallback: CertificateTemplate,
): Promise<void> {
  await sql.query(
    `INSERT INTO certificate_templates (event_id, template, background, background_type)
     VALUES ($1, $2::jsonb, $3, $4)
     ON CONFLICT (event_id) DO UPDATE SET background = EXCLUDED.background,
       background_type = EXCLUDED.background_type, updated_at = now()`,
    [eventId, JSON.stringify(fallback), image ? image.bytes.toString('base64') : null, image?.type ?? null],
  );
}

/** The context and race of a participant by tracking key. */
export async function contextOfTrackingKey(sql: Sql, trackingKey: string): Promise<string | undefined> {
  const [row] = await sql.query<{ db: string }>(
    'SELECT r.db FROM participants p JOIN races r ON r.id = p.race_id WHERE p.tracking_key = $1',
    [trackingKey],
  );
  return row?.db;
}
