import { expect, test } from './fixtures.ts';

// Issue 28, channels follow views: the page subscribes to what is on screen and changes its
// subscriptions as the spectator scrolls or navigates.
const REPORT = '/events/demo-city-run/reportlist/group/city-10k/report';

test('a table at its top holds its top window; scrolled down, the rank windows on screen; a card, its runner', async ({
  page,
}) => {
  const sent: { event: string; channel: string }[] = [];
  page.on('websocket', (ws) =>
    ws.on('framesent', (frame) => {
      const message = JSON.parse(String(frame.payload)) as { event: string; data?: { channel?: string } };
      if (message.event === 'pusher:subscribe' || message.event === 'pusher:unsubscribe')
        sent.push({ event: message.event, channel: message.data?.channel ?? '' });
    }),
  );
  const subscribed = () =>
    sent.reduce((set, m) => {
      if (m.event === 'pusher:subscribe') set.add(m.channel);
      else set.delete(m.channel);
      return set;
    }, new Set<string>());
  const top = 'results-demo-city-run-10k-report-city-10k-LIVE1-top';
  const whole = 'results-demo-city-run-10k-report-city-10k-LIVE1';

  await page.goto(`/?lng=en#${REPORT}/LIVE1`);
  const table = page.getByTestId('report-table');
  await expect(table.locator('[aria-rowindex="2"]')).toBeVisible();
  await expect.poll(() => [...subscribed()]).toEqual([top]);

  // Scrolled to the bottom: the rank windows on screen (the last ones: -w39 of 1,200 rows), not
  // the whole report nor the top; each fetched alone by offset.
  await table.evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await expect
    .poll(() => [...subscribed()].length > 0 && [...subscribed()].every((c) => c.startsWith(`${whole}-w`)))
    .toBe(true);
  await table.evaluate((el) => el.scrollTo(0, 0));
  await expect.poll(() => [...subscribed()]).toEqual([top]);

  // A tracking card: the runner's channel, nothing of the table any more.
  const link = table.locator('[aria-rowindex="2"]').getByRole('link').first();
  const bib = await table.locator('[aria-rowindex="2"]').getAttribute('data-key');
  await link.click();
  await expect.poll(() => [...subscribed()]).toEqual([`results-demo-city-run-10k-runner-${bib}`]);
});
