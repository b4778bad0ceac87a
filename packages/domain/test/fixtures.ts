/// <reference types="node" />
import { readFileSync } from 'node:fs';

/** A fixture file of the repository's `fixtures/` folder, as text (tests only). */
export function fixtureText(name: string): string {
  return readFileSync(new URL(`../../../fixtures/${name}`, import.meta.url), 'utf8');
}

/** Rows of a simple delimited file (no quoted fields) as records keyed by its header. */
export function readTable(text: string, separator: string): Record<string, string>[] {
  const [header, ...lines] = text.split(/\r?\n/).filter((l) => l.length > 0);
  const keys = header!.split(separator);
  return lines.map((line) => {
    const cells = line.split(separator);
    return Object.fromEntries(keys.map((k, i) => [k, (cells[i] ?? '').trim()]));
  });
}

/** `h:mm:ss`, `mm:ss` or `ss` as milliseconds; undefined for a blank or non-time cell. */
export function clockMs(text: string | undefined): number | undefined {
  if (!text || !/^\d+(:\d{1,2}){0,2}$/.test(text)) return undefined;
  return text.split(':').reduce((acc, part) => acc * 60 + Number(part), 0) * 1000;
}

/** A published rank: a number, or undefined when blank, a status or tied (`3=`). */
export function publishedRank(text: string | undefined): { rank?: number; tied: boolean } {
  if (!text) return { tied: false };
  const tied = text.endsWith('=');
  const n = Number(tied ? text.slice(0, -1) : text);
  return Number.isInteger(n) && n > 0 ? { rank: n, tied } : { tied: false };
}
