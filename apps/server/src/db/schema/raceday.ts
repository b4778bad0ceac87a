import { boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { contexts, devices } from './results.ts';

/** The protocol side of a device (migration 0010_raceday.sql). */
export const deviceConnectors = pgTable(
  'device_connectors',
  {
    deviceId: uuid('device_id')
      .primaryKey()
      .references(() => devices.id, { onDelete: 'cascade' }),
    db: text('db')
      .notNull()
      .references(() => contexts.db),
    kind: text('kind', {
      enum: ['tempora', 'raceresult', 'wiclax', 'mylaps', 'chronotrack', 'impinj', 'rrexporter'],
    }).notNull(),
    host: text('host'),
    port: integer('port'),
    listenPort: integer('listen_port'),
    clockOffsetMs: integer('clock_offset_ms').notNull().default(0),
    enabled: boolean('enabled').notNull().default(true),
    pointMap: jsonb('point_map').notNull().default({}),
    cursorFile: integer('cursor_file'),
    cursorPassing: integer('cursor_passing').notNull().default(0),
    /** ChronoTrack: the last stored read's sequence number per client location (0032). */
    cursorLocations: jsonb('cursor_locations').notNull().default({}),
    /** The IANA zone of the device's clock (wall-clock protocols; null: UTC) (0033). */
    timeZone: text('time_zone'),
    /** How chip codes are read: `as-is`, `strip-zeros`, `epc-bib` (0033). */
    chipFormat: text('chip_format', { enum: ['as-is', 'strip-zeros', 'epc-bib'] })
      .notNull()
      .default('as-is'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('device_connectors_db_idx').on(t.db)],
);
