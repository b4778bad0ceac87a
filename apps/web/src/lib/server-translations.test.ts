import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Labels, TranslationLoader } from './server-translations.ts';

describe('server translations batching (spec §4, §7, §8)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const deferred = () => {
    let resolve!: (l: Labels) => void;
    let reject!: (e: unknown) => void;
    const promise = new Promise<Labels>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise, resolve, reject };
  };

  it('creates then queues a context and loads after 50 ms, all queued together', async () => {
    const fetcher = vi.fn(async (_ui: string, _ns: string, lng: string) => ({ hello: lng }));
    const loader = new TranslationLoader(fetcher);
    const en = loader.request('acn', 'inscriptions', 'en');
    const fr = loader.request('acn', 'inscriptions', 'fr');
    expect(en.status).toBe('queued');
    expect(loader.request('acn', 'inscriptions', 'en')).toBe(en);
    await vi.advanceTimersByTimeAsync(49);
    expect(fetcher).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(fetcher).toHaveBeenCalledTimes(2);
    await en.done;
    expect(en.status).toBe('succes');
    expect(en.loading).toBe(false);
    expect(fr.labels).toEqual({ hello: 'fr' });
    // Cached: no second request.
    loader.request('acn', 'inscriptions', 'fr');
    await vi.advanceTimersByTimeAsync(100);
    expect(fetcher).toHaveBeenCalledTimes(2);
  });

  it('re-runs 25 ms after a batch when more were queued meanwhile', async () => {
    const first = deferred();
    const fetcher = vi.fn((_ui: string, ns: string) =>
      ns === 'a' ? first.promise : Promise.resolve({ b: 'b' }),
    );
    const loader = new TranslationLoader(fetcher);
    loader.request('acn', 'a', 'fr');
    await vi.advanceTimersByTimeAsync(50);
    expect(fetcher).toHaveBeenCalledTimes(1);
    const b = loader.request('acn', 'b', 'fr');
    expect(b.status).toBe('queued');
    await vi.advanceTimersByTimeAsync(100);
    expect(fetcher).toHaveBeenCalledTimes(1); // waits for the running batch
    first.resolve({ a: 'a' });
    await vi.advanceTimersByTimeAsync(24);
    expect(fetcher).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetcher).toHaveBeenCalledTimes(2);
    expect((await b.done).status).toBe('succes');
  });

  it('on failure: status error, loading cleared, cache dropped so the next request retries', async () => {
    const fetcher = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValue({ ok: 'yes' });
    const onLoaded = vi.fn();
    const loader = new TranslationLoader(fetcher, onLoaded);
    const failed = loader.request('cr', 'inscriptions', 'en');
    await vi.advanceTimersByTimeAsync(50);
    await failed.done;
    expect(failed.status).toBe('error');
    expect(failed.loading).toBe(false);
    expect(onLoaded).not.toHaveBeenCalled();
    expect(loader.peek('cr', 'inscriptions', 'en')).toBeUndefined();
    const retry = loader.request('cr', 'inscriptions', 'en');
    expect(retry).not.toBe(failed);
    await vi.advanceTimersByTimeAsync(50);
    expect((await retry.done).status).toBe('succes');
    expect(onLoaded).toHaveBeenCalledTimes(1);
  });
});
