import fs from 'node:fs';
import { createRequire } from 'node:module';
import { expect, test } from './fixtures.ts';

/**
 * Issue 19: axe-core on every public page, in English and French, at phone size: no serious or
 * critical violation. axe-core's own script is injected (its Playwright wrapper needs Node 22);
 * CSP is bypassed for the injection only.
 */
const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const EVENT = '/events/demo-city-run';
const pages = [
  '/',
  `${EVENT}/home`,
  `${EVENT}/reportlist`,
  `${EVENT}/reportlist/group/city-10k/report/LIVE1`,
  `${EVENT}/tracking`,
  `${EVENT}/map`,
  `${EVENT}/favorites`,
  `${EVENT}/contact`,
  `${EVENT}/cms/demo-city-run-10k`,
  `${EVENT}/ctx/demo-city-run-10k/generic/live/stats/city-10k`,
  `${EVENT}/ctx/demo-city-run-10k/generic/live/scroller/LIVE1/10/8`,
  '/firstrow/demo-city-run-10k/race/city-10k',
  '/live/clm/demo-city-run-10k/city-10k',
  '/misc/crac/demo-challenge',
  '/results/demo-city-run/youtube',
  '/photobox?event=demo-city-run',
  '/tracking',
  '/genericTracking',
  '/test',
  '/events/no-such-event/home',
];

test.use({ viewport: { width: 390, height: 844 }, bypassCSP: true });

for (const lng of ['en', 'fr']) {
  test(`no serious or critical axe violation on the public pages (${lng})`, async ({ page }) => {
    test.setTimeout(150_000);
    const found: string[] = [];
    for (const where of pages) {
      await page.goto(`/?lng=${lng}#${where}`);
      await expect(page.getByRole('heading', { level: 1 }).first(), where).toBeVisible({ timeout: 15_000 });
      await page.waitForTimeout(400);
      await page.addScriptTag({ content: axeSource });
      const violations = await page.evaluate(async () => {
        const axe = (
          window as unknown as {
            axe: {
              run(context: Document): Promise<{
                violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[];
              }>;
            };
          }
        ).axe;
        const result = await axe.run(document);
        return result.violations
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map(
            (v) =>
              `${v.id}: ${v.nodes
                .map((n) => n.target.join(' '))
                .slice(0, 3)
                .join(', ')}`,
          );
      });
      found.push(...violations.map((v) => `${where} — ${v}`));
    }
    expect(found).toEqual([]);
  });
}
