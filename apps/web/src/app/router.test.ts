import { matchRoutes, type RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { routes, routesFor } from './router.tsx';

/** A concrete path for every route of the tree (parameters as words, optional ones both ways). */
function pathsOf(list: RouteObject[], base = ''): string[] {
  return list.flatMap((route) => {
    const own = route.path ?? '';
    const joined = own.startsWith('/') ? own : `${base.replace(/\/$/, '')}/${own}`.replace(/\/+$/, '');
    const variants = [joined, joined.replace(/\/:[^/]+\?/g, '')].map((p) =>
      p.replace(/:[^/?]+\??/g, 'w1').replace(/\*$/, 'some/where'),
    );
    return [...variants, ...(route.children ? pathsOf(route.children, route.path ? joined : base) : [])];
  });
}

const describeMatch = (list: RouteObject[], path: string) =>
  (matchRoutes(list, path) ?? []).map((m) => ({
    path: m.route.path,
    index: m.route.index ?? false,
    element: m.route.element,
    params: m.params,
  }));

describe('routesFor', () => {
  it('matches every path of the tree as the whole tree does, with fewer routes', () => {
    const paths = [...new Set([...pathsOf(routes), '/', '/EVENTS/x/home', '/nowhere', '/events'])];
    expect(paths.length).toBeGreaterThan(60);
    for (const path of paths)
      expect(describeMatch(routesFor(path), path), path).toEqual(describeMatch(routes, path));
    const count = (list: RouteObject[]): number =>
      list.reduce((n, r) => n + 1 + (r.children ? count(r.children) : 0), 0);
    expect(count(routesFor('/events/x/home'))).toBeLessThan(count(routes) / 2);
  });

  it('gives the same route objects for paths of one first segment', () => {
    expect(routesFor('/events/a/home')).toBe(routesFor('/events/b/map'));
  });
});
