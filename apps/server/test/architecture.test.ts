import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The layout's rules that Biome's restricted imports cannot state (issue 30): no folder imports a
 * folder that imports it back, at every level where folders are units — the server's top folders
 * (`lib`, `db`, `modules`, `realtime`…), its modules, the web client's top folders (`app`,
 * `features`, `lib`, `components`…) and its features. Tests are left out (they may reach further).
 * Cross-module and cross-feature imports themselves are refused by Biome (biome.json).
 */
const repo = path.resolve(import.meta.dirname, '../../..');

function sources(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'dist') sources(full, out);
    } else if (/\.(ts|tsx)$/.test(entry.name) && !/\.(test|spec)\.tsx?$/.test(entry.name)) out.push(full);
  }
  return out;
}

/** The folder graph under `base`: an edge A → B when a file of folder A imports a file of folder B. */
function folderGraph(base: string): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  const folderOf = (file: string) => {
    const rel = path.relative(base, file).split(path.sep);
    return rel.length > 1 ? rel[0]! : null;
  };
  for (const file of sources(base)) {
    const from = folderOf(file);
    if (!from || file.includes(`${path.sep}test-helpers`)) continue;
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:from\s+|import\()\s*['"](\.[^'"]+)['"]/g)) {
      const target = path.resolve(path.dirname(file), m[1]!);
      if (!target.startsWith(base + path.sep)) continue;
      const to = folderOf(target);
      if (!to || to === from) continue;
      if (!graph.has(from)) graph.set(from, new Set());
      graph.get(from)!.add(to);
    }
  }
  return graph;
}

/** The cycles of a graph, as its strongly connected components of more than one folder (Tarjan). */
function cycles(graph: Map<string, Set<string>>): string[][] {
  let index = 0;
  const stack: string[] = [];
  const onStack = new Set<string>();
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const found: string[][] = [];
  const visit = (v: string) => {
    indices.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!indices.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indices.get(w)!));
    }
    if (low.get(v) === indices.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!indices.has(v)) visit(v);
  return found;
}

describe('layout (issue 30)', () => {
  const levels = [
    'apps/server/src',
    'apps/server/src/modules',
    'apps/web/src',
    'apps/web/src/features',
    'packages/domain/src',
  ];
  for (const level of levels) {
    it(`has no folder cycle in ${level}`, () => {
      expect(cycles(folderGraph(path.join(repo, level)))).toEqual([]);
    });
  }

  it('finds a cycle when there is one (the check can fail)', () => {
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
      ['d', new Set(['a'])],
    ]);
    expect(cycles(graph)).toEqual([['a', 'b', 'c']]);
  });
});
