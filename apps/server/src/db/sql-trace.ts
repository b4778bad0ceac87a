import { writeFileSync } from 'node:fs';
import type { Sql } from './database.ts';

/** Records one statement's run: its text, the milliseconds it took, the process's CPU meanwhile. */
export type Trace = (text: string, ms: number, cpuMs: number) => void;

/**
 * `SQL_TRACE=file` (diagnostics, PGlite): counts each statement's text, the milliseconds it
 * held the connection and the process's CPU milliseconds meanwhile (what a loaded machine does
 * not inflate; with PGlite on its own thread, both threads'), written to `file.<pid>` as JSON
 * lines when the process exits (what a bench's requests cost the database, statement by statement).
 */
export function sqlTrace(): Trace | undefined {
  const file = process.env.SQL_TRACE;
  if (!file) return undefined;
  const seen = new Map<string, { n: number; ms: number; cpuMs: number }>();
  process.on('exit', () => {
    const rows = [...seen].sort((a, b) => b[1].ms - a[1].ms);
    writeFileSync(
      `${file}.${process.pid}`,
      rows
        .map(([sql, s]) => JSON.stringify({ ms: Math.round(s.ms), cpuMs: Math.round(s.cpuMs), n: s.n, sql }))
        .join('\n'),
    );
  });
  return (text, ms, cpuMs) => {
    const key = text.replace(/\s+/g, ' ').trim().slice(0, 300);
    const s = seen.get(key) ?? { n: 0, ms: 0, cpuMs: 0 };
    s.n++;
    s.ms += ms;
    s.cpuMs += cpuMs;
    seen.set(key, s);
  };
}

/** `sql` with each query recorded by `trace` (unchanged without one). */
export function traced(sql: Sql, trace: Trace | undefined): Sql {
  if (!trace) return sql;
  return {
    ...sql,
    async query<T>(text: string, params?: unknown[]) {
      const t = performance.now();
      const cpu = process.cpuUsage();
      try {
        return await sql.query<T>(text, params);
      } finally {
        const used = process.cpuUsage(cpu);
        trace(text, performance.now() - t, (used.user + used.system) / 1000);
      }
    },
  };
}
