import type { Sql } from '../../db/database.ts';

/** SQL of the devices module (connectors, the corrections audit, race-day reads). */

export { CHIP_FORMATS, type ChipFormat, CONNECTOR_KINDS, type ConnectorKind } from '@tempora/contracts';

import type { ChipFormat, ConnectorKind } from '@tempora/contracts';

/** A device with its connector (a device made before race day has the `tempora` kind). */
export interface ConnectorConfig {
  deviceId: string;
  db: string;
  name: string;
  pointKey: string | null;
  kind: ConnectorKind;
  host: string | null;
  port: number | null;
  listenPort: number | null;
  clockOffsetMs: number;
  /** The IANA zone the device's clock shows (wall-clock protocols); null: UTC. */
  timeZone: string | null;
  chipFormat: ChipFormat;
  enabled: boolean;
  pointMap: Record<string, string>;
  cursorFile: number | null;
  cursorPassing: number;
  /** ChronoTrack: the last stored read's sequence number per client location. */
  cursorLocations: Record<string, number>;
}

const CONFIG_SELECT = `SELECT d.id AS "deviceId", d.db, d.name, d.point_key AS "pointKey",
       coalesce(c.kind, 'tempora') AS kind, c.host, c.port, c.listen_port AS "listenPort",
       coalesce(c.clock_offset_ms, 0) AS "clockOffsetMs", c.time_zone AS "timeZone",
       coalesce(c.chip_format, 'as-is') AS "chipFormat", coalesce(c.enabled, true) AS enabled,
       coalesce(c.point_map, '{}'::jsonb) AS "pointMap", c.cursor_file AS "cursorFile",
       coalesce(c.cursor_passing, 0) AS "cursorPassing",
       coalesce(c.cursor_locations, '{}'::jsonb) AS "cursorLocations"
  FROM devices d LEFT JOIN device_connectors c ON c.device_id = d.id`;

export async function connectorsOf(sql: Sql, db: string): Promise<ConnectorConfig[]> {
  return sql.query<ConnectorConfig>(`${CONFIG_SELECT} WHERE d.db = $1 ORDER BY d.created_at, d.id`, [db]);
}

export async function allConnectors(sql: Sql): Promise<ConnectorConfig[]> {
  return sql.query<ConnectorConfig>(`${CONFIG_SELECT} WHERE c.device_id IS NOT NULL ORDER BY d.created_at`);
}

export async function findConnector(sql: Sql, deviceId: string): Promise<ConnectorConfig | null> {
  const rows = await sql.query<ConnectorConfig>(`${CONFIG_SELECT} WHERE d.id = $1`, [deviceId]);
  return rows[0] ?? null;
}

export async function upsertConnector(
  sql: Sql,
  c: Pick<
    ConnectorConfig,
    'deviceId' | 'db' | 'kind' | 'host' | 'port' | 'listenPort' | 'clockOffsetMs' | 'enabled' | 'pointMap'
  > &
    Partial<Pick<ConnectorConfig, 'timeZone' | 'chipFormat'>>,
) {
  await sql.query(
    `INSERT INTO device_connectors (device_id, db, kind, host, port, listen_port, clock_offset_ms, enabled, point_map,
                                    time_zone, chip_format)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
     ON CONFLICT (device_id) DO UPDATE SET kind = $3, host = $4, port = $5, listen_port = $6,
       clock_offset_ms = $7, enabled = $8, point_map = $9, time_zone = $10, chip_format = $11, updated_at = now()`,
    [
      c.deviceId,
      c.db,
      c.kind,
      c.host,
      c.port,
      c.listenPort,
      c.clockOffsetMs,
      c.enabled,
      JSON.stringify(c.pointMap),
      c.timeZone ?? null,
      c.chipFormat ?? 'as-is',
    ],
  );
}

/** RaceResult: the file and passing number of the last stored read (resume point). */
export async function saveCursor(sql: Sql, deviceId: string, file: number | null, passing: number) {
  await sql.query('UPDATE device_connectors SET cursor_file = $2, cursor_passing = $3 WHERE device_id = $1', [
    deviceId,
    file,
    passing,
  ]);
}

/** ChronoTrack: merges the last stored sequence numbers of these locations (resume point). */
export async function saveLocationCursors(sql: Sql, deviceId: string, cursors: Record<string, number>) {
  await sql.query(
    `UPDATE device_connectors SET cursor_locations = coalesce(cursor_locations, '{}'::jsonb) || $2::jsonb
      WHERE device_id = $1`,
    [deviceId, JSON.stringify(cursors)],
  );
}

/** The latest read time stored from a device (Wiclax rewinds from there). */
export async function lastReadTime(sql: Sql, deviceId: string): Promise<number | null> {
  const rows = await sql.query<{ t: number | null }>(
    'SELECT max(time_ms)::float8 AS t FROM passings WHERE device_id = $1 AND NOT deleted',
    [deviceId],
  );
  return rows[0]?.t ?? null;
}

/** Per device of a context: reads stored, last read time, last arrival, reads in the last minute. */
export async function deviceCounts(
  sql: Sql,
  db: string,
): Promise<
  Map<string, { total: number; lastTimeMs: number | null; lastAt: number | null; lastMinute: number }>
> {
  const rows = await sql.query<{ id: string; total: number; t: number | null; at: number | null; m: number }>(
    `SELECT device_id AS id, count(*)::float8 AS total, max(time_ms)::float8 AS t,
            (extract(epoch FROM max(received_at)) * 1000)::float8 AS at,
            (count(*) FILTER (WHERE received_at > now() - interval '1 minute'))::float8 AS m
       FROM passings WHERE db = $1 AND device_id IS NOT NULL AND NOT deleted GROUP BY device_id`,
    [db],
  );
  return new Map(rows.map((r) => [r.id, { total: r.total, lastTimeMs: r.t, lastAt: r.at, lastMinute: r.m }]));
}
