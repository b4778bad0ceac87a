import { spawn } from 'node:child_process';
import net from 'node:net';

/**
 * More connections accepted per turn of the event loop (issue 38, the registration rush).
 *
 * Node 20 (libuv 1.46) accepts one connection per listening handle per turn of the event loop
 * (seen with strace: one `accept4` per `epoll_pwait`, never until `EAGAIN`). A turn lasts as long
 * as the work it runs: when a popular race opens, the turns of a busy node last 20–600 ms, so it
 * accepted 50–150 connections a second while 2,500 browsers connected in the first second. The
 * rest waited in the kernel's queue (2,900 at the peak) for up to 12 s, and the runners accepted
 * late were refused a place that runners who arrived after them had got: not the order of
 * arrival. A plain `http.Server` with a 50 ms turn accepts 22 connections a second.
 *
 * Here the listening socket gets `count` more handles in this process: file descriptors of the
 * same socket (duplicated by the kernel when a handle is passed to another process and back over
 * IPC, Node's `net.Native` handles: the helper process never listens on them, so it never accepts
 * a connection). Each handle accepts its one connection a turn, and hands it to `server` (the
 * HTTP server's own `'connection'` path: keep-alive, timeouts and `close()` as for the others).
 * 17 handles accepted 17 times as many (374 a second with 50 ms turns). When the queue is empty,
 * a connection wakes every handle once: one accepts it, the others find nothing (`EAGAIN`), 3.4 µs
 * each. More handles are not faster in a rush either (a node taking connections faster than it
 * answers runs longer turns): 8 gave the lowest entry and `/api/health` p99 (docs/deployment.md).
 *
 * `backlog` must be the one the server listens with (the socket's queue is set by the last
 * `listen()` on it). `server.close()` closes the extra handles too. The socket stays open until the last handle of
 * it is closed: the helper process exits as soon as the handles are back.
 */
export async function addAcceptHandles(server: net.Server, count: number, backlog: number): Promise<number> {
  const handle = (server as unknown as { _handle?: object })._handle;
  if (count < 1 || !handle) return 0;
  const copies = await duplicate(handle, count);
  const options = server as unknown as { allowHalfOpen?: boolean; noDelay?: boolean; keepAlive?: boolean };
  const extras = copies.map((copy) => {
    const extra = new net.Server({
      allowHalfOpen: options.allowHalfOpen ?? true,
      noDelay: options.noDelay ?? true,
      keepAlive: options.keepAlive ?? false,
    });
    extra.on('connection', (socket) => server.emit('connection', socket));
    extra.on('error', (error) => server.emit('error', error));
    // With the server's backlog: each listen() sets the socket's queue, the last one wins (Node's
    // default 511 here cut the 4,096 of `server.ts` to 512, and the rush overflowed it).
    (extra.listen as (handle: unknown, backlog: number) => net.Server)(copy, backlog);
    return extra;
  });
  const close = server.close.bind(server);
  server.close = ((callback?: (error?: Error) => void) => {
    for (const extra of extras) extra.close();
    return close(callback);
  }) as typeof server.close;
  return extras.length;
}

/** The helper: sends each handle it receives straight back, and exits once its parent is done. */
const ECHO = `process.on('message', (m, h) => process.send(m, h));
process.on('disconnect', () => process.exit(0));`;

/** `count` new descriptors of `handle`'s socket, through a helper process and back. */
function duplicate(handle: object, count: number): Promise<object[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', ECHO], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      env: { PATH: process.env.PATH ?? '' },
    });
    const copies: object[] = [];
    const fail = (error: Error) => {
      child.kill();
      reject(error);
    };
    child.on('error', fail);
    child.on('exit', (code) => {
      if (copies.length < count) fail(new Error(`accept handles: the helper exited (${code})`));
    });
    child.on('message', (_message, copy) => {
      if (!copy) return fail(new Error('accept handles: a handle came back empty'));
      copies.push(copy);
      if (copies.length === count) {
        child.disconnect();
        resolve(copies);
      }
    });
    for (let k = 0; k < count; k++) child.send(k, handle as net.Server);
  });
}
