import { afterEach, describe, expect, it } from 'vitest';
import type { ChannelStats } from '../../realtime/adapters/types.ts';
import { type ChannelOccupancy, channelOccupancy } from './occupancy.ts';

/** An upstream whose channel list answers when the test says (one question at a time). */
function upstream() {
  let answer: ((names: string[]) => void) | null = null;
  let asked = 0;
  return {
    clusterChannels: () =>
      new Promise<Map<string, ChannelStats>>((resolve) => {
        asked++;
        answer = (names) => resolve(new Map(names.map((n) => [n, { subscriptionCount: 1 }])));
      }),
    /** Answers the pending question with these occupied channels. */
    async answer(names: string[]) {
      const reply = answer;
      answer = null;
      reply?.(names);
      await new Promise((r) => setImmediate(r));
    },
    asked: () => asked,
  };
}

describe('channel occupancy with an upstream Pusher service (issue 28)', () => {
  let occupancy: ChannelOccupancy | null = null;
  afterEach(() => occupancy?.close?.());

  it('applies occupancy webhooks at once, and a later snapshot wins over earlier webhooks only', async () => {
    let clock = 1_000;
    const up = upstream();
    occupancy = channelOccupancy({
      localCount: () => 0,
      clusterChannels: up.clusterChannels,
      refreshMs: 60_000,
      now: () => clock,
    });
    // Asked at once: until it answers, everything counts as occupied (to be safe).
    expect(occupancy.has('results-a')).toBe(true);
    await up.answer(['results-a']);
    expect(occupancy.has('results-a')).toBe(true);
    expect(occupancy.has('results-b')).toBe(false);

    // Webhooks change it without waiting for the next question.
    clock += 10;
    occupancy.heard?.('results-b', true);
    occupancy.heard?.('results-a', false);
    expect(occupancy.has('results-b')).toBe(true);
    expect(occupancy.has('results-a')).toBe(false);
    // Other prefixes are not ours.
    occupancy.heard?.('private-x', true);
    expect(occupancy.has('private-x')).toBe(false);
  });

  it('keeps webhooks heard while the snapshot was being asked over its (older) answer', async () => {
    let clock = 5_000;
    const up = upstream();
    occupancy = channelOccupancy({
      localCount: () => 0,
      clusterChannels: up.clusterChannels,
      refreshMs: 60_000,
      now: () => clock,
    });
    // The question is in flight; two webhooks arrive before its answer.
    clock += 5;
    occupancy.heard?.('results-new', true);
    occupancy.heard?.('results-gone', false);
    // The answer was computed before those webhooks: it still lists `gone`, not `new`.
    await up.answer(['results-gone', 'results-other']);
    expect(occupancy.has('results-new')).toBe(true);
    expect(occupancy.has('results-gone')).toBe(false);
    expect(occupancy.has('results-other')).toBe(true);
  });

  it('asks the channel list every refreshMs without webhooks, every resyncMs while they arrive', async () => {
    let clock = 0;
    const up = upstream();
    const timers: (() => void)[] = [];
    const realSetInterval = globalThis.setInterval;
    // Drive the refresh timer by hand.
    globalThis.setInterval = ((fn: () => void) => {
      timers.push(fn);
      return { unref() {} } as unknown as NodeJS.Timeout;
    }) as typeof setInterval;
    try {
      occupancy = channelOccupancy({
        localCount: () => 0,
        clusterChannels: up.clusterChannels,
        refreshMs: 1_000,
        resyncMs: 10_000,
        now: () => clock,
      });
    } finally {
      globalThis.setInterval = realSetInterval;
    }
    const tick = async () => {
      clock += 1_000;
      for (const t of timers) t();
      await up.answer([]);
    };
    await up.answer([]);
    expect(up.asked()).toBe(1);
    await tick();
    await tick();
    expect(up.asked()).toBe(3); // every second without webhooks
    occupancy.heard?.('results-a', true);
    for (let k = 0; k < 9; k++) await tick();
    expect(up.asked()).toBe(3); // webhooks flowing: no question for 10 s
    await tick();
    expect(up.asked()).toBe(4); // the resync
    expect(occupancy.has('results-a')).toBe(false); // the resync says nobody is there
  });
});
