import { describe, expect, it, vi } from 'vitest';
import { EventBus } from './event-bus.ts';

describe('event bus (spec §4)', () => {
  it('delivers an event with its data and channel to its handlers and to `*`', () => {
    const bus = new EventBus();
    const named = vi.fn();
    const any = vi.fn();
    bus.on('report-patch', named);
    bus.on('*', any);
    const patch = { group: 'g', report: 'r', version: 2, reload: true as const };
    bus.emit('report-patch', patch, 'results-x');
    bus.emit('something-else', 1, 'private-user-a');
    expect(named).toHaveBeenCalledExactlyOnceWith(patch, { event: 'report-patch', channel: 'results-x' });
    expect(any).toHaveBeenCalledTimes(2);
    expect(any).toHaveBeenLastCalledWith(1, { event: 'something-else', channel: 'private-user-a' });
  });

  it('stops delivering after off, and drops empty sets', () => {
    const bus = new EventBus();
    const handler = vi.fn();
    const off = bus.on('passing', handler);
    off();
    bus.emit('passing', { raceId: 'r', bib: '1', pointKey: 'p', timeOfDay: 1 });
    expect(handler).not.toHaveBeenCalled();
    expect(bus.listenerCount('passing')).toBe(0);
  });

  it('keeps delivering when one handler throws', () => {
    const bus = new EventBus();
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const after = vi.fn();
    bus.on('x', () => {
      throw new Error('boom');
    });
    bus.on('x', after);
    bus.emit('x', 1);
    expect(after).toHaveBeenCalled();
    expect(error).toHaveBeenCalled();
    error.mockRestore();
  });
});
