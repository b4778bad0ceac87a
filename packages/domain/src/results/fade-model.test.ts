import { describe, expect, it } from 'vitest';
import { EVEN_PACE_RATIO, FadeModel, generalMarathonFade, priorFromEditions } from './fade-model.ts';

const MIN = 60_000;

describe('marathon fade by pace band (issue 19)', () => {
  it('the general prior fades more as the half gets slower, never faster than even pace', () => {
    const fast = generalMarathonFade(65 * MIN);
    const mid = generalMarathonFade(110 * MIN);
    const slow = generalMarathonFade(170 * MIN);
    expect(fast).toBeGreaterThan(EVEN_PACE_RATIO);
    expect(mid).toBeGreaterThan(fast);
    expect(slow).toBeGreaterThan(mid);
    expect(slow).toBeLessThan(2.25);
  });

  it('learns a hot day from the first finishers and lends it to every band', () => {
    const model = new FadeModel(generalMarathonFade);
    const before = model.predictFinish(110 * MIN);
    // Fast runners fading twice what the prior expects.
    for (let k = 0; k < 50; k++) {
      const half = (64 + (k % 5)) * MIN;
      model.observe(half, half * (EVEN_PACE_RATIO + 2 * (generalMarathonFade(half) - EVEN_PACE_RATIO)));
    }
    expect(model.excess()).toBeGreaterThan(1.5);
    expect(model.predictFinish(110 * MIN)).toBeGreaterThan(before);
  });

  it('a band that has finishers moves towards their ratio', () => {
    const model = new FadeModel(() => 2.1, { priorWeight: 10 });
    for (let k = 0; k < 90; k++) model.observe(120 * MIN, 120 * MIN * 2.2);
    // The band's own ratio dominates once it has many runners.
    expect(model.ratio(121 * MIN)).toBeGreaterThan(2.18);
  });

  it('takes previous editions as the prior, per band, with the general model elsewhere', () => {
    const editions = Array.from({ length: 20 }, () => ({ halfMs: 100 * MIN, finishMs: 100 * MIN * 2.15 }));
    const prior = priorFromEditions(editions);
    expect(prior(101 * MIN)).toBeCloseTo(2.15);
    expect(prior(140 * MIN)).toBe(generalMarathonFade(140 * MIN));
  });
});
