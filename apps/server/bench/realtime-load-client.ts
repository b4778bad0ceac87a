/**
 * Load client of the realtime bench, run as a child process (its own file-descriptor budget):
 * holds many raw `ws` connections speaking protocol 7 (pusher-js per connection is too heavy),
 * and reports, per published round, each subscriber's delivery latency. Driven over IPC by
 * realtime.bench.ts; not meant to be run alone.
 */
import { WebSocket } from 'ws';

type Command =
  | { cmd: 'connect'; url: string; count: number; channel?: string; batch: number }
  | { cmd: 'arm'; round: number; expected: number; timeoutMs: number }
  | { cmd: 'close' };

const sockets: WebSocket[] = [];
let armed: { round: number; expected: number; latencies: number[]; timer: NodeJS.Timeout } | undefined;

const now = () => performance.timeOrigin + performance.now();
const reply = (message: object) => process.send?.(message);

function finishRound(): void {
  if (!armed) return;
  clearTimeout(armed.timer);
  reply({ type: 'round', round: armed.round, latencies: armed.latencies });
  armed = undefined;
}

function onFrame(raw: Buffer): void {
  const at = now();
  if (!armed) return;
  const frame = JSON.parse(raw.toString()) as { event: string; data: string };
  if (frame.event !== 'tick') return;
  const data = JSON.parse(frame.data) as { t: number; r: number };
  if (data.r !== armed.round) return;
  armed.latencies.push(at - data.t);
  if (armed.latencies.length >= armed.expected) finishRound();
}

/** Opens one connection; resolves once subscribed (protocol) or open (bare ws baseline). */
function open(url: string, channel: string | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    ws.on('error', reject);
    if (!channel) ws.once('open', () => resolve());
    let subscribed = !channel;
    ws.on('message', (raw: Buffer) => {
      if (!subscribed) {
        if (raw.includes('pusher:connection_established')) {
          ws.send(JSON.stringify({ event: 'pusher:subscribe', data: { channel } }));
        } else if (raw.includes('pusher_internal:subscription_succeeded')) {
          subscribed = true;
          resolve();
        }
        return;
      }
      onFrame(raw);
    });
    sockets.push(ws);
  });
}

async function connect(command: Extract<Command, { cmd: 'connect' }>): Promise<void> {
  const started = now();
  let failed = 0;
  for (let i = 0; i < command.count; i += command.batch) {
    const batch = Array.from({ length: Math.min(command.batch, command.count - i) }, () =>
      open(command.url, command.channel).catch(() => {
        failed++;
      }),
    );
    await Promise.all(batch);
  }
  reply({ type: 'connected', count: command.count - failed, failed, ms: now() - started });
}

process.on('message', (command: Command) => {
  if (command.cmd === 'connect') void connect(command);
  else if (command.cmd === 'arm') {
    armed = {
      round: command.round,
      expected: command.expected,
      latencies: [],
      timer: setTimeout(finishRound, command.timeoutMs),
    };
    reply({ type: 'armed' });
  } else if (command.cmd === 'close') {
    for (const ws of sockets.splice(0)) ws.terminate();
    reply({ type: 'closed' });
  }
});
