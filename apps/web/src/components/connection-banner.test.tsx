import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { initI18n } from '../lib/i18n.ts';
import { type PusherLike, RealtimeSession } from '../lib/realtime/client.ts';
import { RealtimeSessionContext } from '../lib/realtime/realtime-provider.tsx';
import { ConnectionBanner } from './connection-banner.tsx';

initI18n('en');

/** A connection whose state the test drives (pusher-js `state_change` events). */
function session() {
  const handlers = new Set<(change: { current: string }) => void>();
  const connection = {
    state: 'connecting',
    bind: (_: string, fn: (change: { current: string }) => void) => handlers.add(fn),
    unbind: () => undefined,
  };
  const s = new RealtimeSession({ connection, disconnect() {} } as unknown as PusherLike);
  const set = (current: string) =>
    act(() => {
      for (const fn of handlers) fn({ current });
    });
  return { s, set };
}

describe('connection banner (issue 5)', () => {
  it('stays hidden until a connection is lost, then says so politely and hides again', async () => {
    const { s, set } = session();
    render(
      <RealtimeSessionContext.Provider value={s}>
        <ConnectionBanner />
      </RealtimeSessionContext.Provider>,
    );
    set('connected');
    expect(screen.queryByRole('status')).toBeNull();
    set('unavailable');
    expect(screen.getByRole('status').textContent).toMatch(/connection was lost/);
    set('connecting');
    expect(screen.getByRole('status').textContent).toMatch(/Reconnecting/);
    set('connected');
    await act(() => new Promise((r) => setTimeout(r, 400))); // the collapse animation
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('shows nothing without realtime', () => {
    render(<ConnectionBanner />);
    expect(screen.queryByRole('status')).toBeNull();
  });
});
