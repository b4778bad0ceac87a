import { randomInt } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { type WebSocket, WebSocketServer } from 'ws';
import { Connection } from './connection.ts';
import type { RealtimeNode } from './node.ts';
import {
  codes,
  encodeMessage,
  errorMessage,
  MAX_READ_FRAME_BYTES,
  PONG_TIMEOUT_S,
  PROTOCOL_VERSIONS,
} from './protocol.ts';

export interface SocketServerOptions {
  key: string;
  maxConnections: number;
  activityTimeoutS: number;
}

/** The WebSocket side of a node: accepted connections, the activity sweeper, graceful close. */
export interface SocketServer {
  readonly connections: ReadonlyMap<string, Connection>;
  /** Closes every connection with 4200 (reconnect at once, to another node), then drops stragglers. */
  close(graceMs?: number): Promise<void>;
}

/** A socket id as Pusher issues them: two decimal numbers joined by a dot (`123.456`). */
function newSocketId(): string {
  return `${randomInt(1, 2 ** 47)}.${randomInt(1, 2 ** 47)}`;
}

/**
 * Serves `ws(s)://host/app/{key}?protocol=7&client=js&version=…` on Fastify's own HTTP server
 * (the `upgrade` event, only for paths starting with `/app/`), as the Pusher Channels protocol
 * describes: `pusher:connection_established` first, close codes 4001/4007/4008/4100 on refusal.
 */
export function attachSocketServer(
  app: FastifyInstance,
  node: RealtimeNode,
  options: SocketServerOptions,
): SocketServer {
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_READ_FRAME_BYTES,
    perMessageDeflate: false,
    clientTracking: false,
  });
  const connections = new Map<string, Connection>();
  const leaving = new Set<Promise<void>>();
  let accepting = true;

  const refuse = (ws: WebSocket, code: number, message: string) => {
    ws.send(errorMessage(code, message));
    ws.close(code, message);
  };

  const accept = (ws: WebSocket, request: IncomingMessage) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const key = url.pathname.slice('/app/'.length);
    if (key !== options.key)
      return refuse(ws, codes.appNotFound, `Application does not exist: ${key.slice(0, 64)}`);
    const protocol = url.searchParams.get('protocol');
    if (!protocol) return refuse(ws, codes.noProtocol, 'No protocol version supplied');
    if (!PROTOCOL_VERSIONS.includes(Number(protocol) as 7)) {
      return refuse(ws, codes.unsupportedProtocol, `Unsupported protocol version ${protocol.slice(0, 8)}`);
    }
    if (connections.size >= options.maxConnections) return refuse(ws, codes.overCapacity, 'Over capacity');
    const id = newSocketId();
    const connection = new Connection(id, ws, node, app.log);
    connections.set(id, connection);
    ws.on('close', () => {
      connections.delete(id);
      const done = connection.finish().finally(() => leaving.delete(done));
      leaving.add(done);
    });
    const established = JSON.stringify({ socket_id: id, activity_timeout: options.activityTimeoutS });
    ws.send(encodeMessage('pusher:connection_established', established));
  };

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!request.url?.startsWith('/app/')) {
      // Another listener may serve other paths; alone, we refuse rather than leave the socket hanging.
      if (app.server.listenerCount('upgrade') === 1) socket.destroy();
      return;
    }
    socket.on('error', () => socket.destroy());
    if (!accepting) {
      socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => accept(ws, request));
  };
  app.server.on('upgrade', onUpgrade);

  // Activity (protocol "Ping and pong"): after activity_timeout seconds of silence the server
  // pings; no pong within the pong timeout closes with 4201 so the client reconnects at once.
  const activityMs = options.activityTimeoutS * 1000;
  const pongMs = Math.min(PONG_TIMEOUT_S, options.activityTimeoutS) * 1000;
  const sweeper = setInterval(
    () => {
      const now = Date.now();
      for (const connection of connections.values()) {
        if (connection.pingSentAt && now - connection.pingSentAt > pongMs) {
          connection.close(codes.pongNotReceived, 'Pong reply not received');
        } else if (!connection.pingSentAt && now - connection.lastSeen > activityMs) {
          connection.ping();
        }
      }
    },
    Math.max(100, Math.min(5000, activityMs / 4)),
  );
  sweeper.unref();

  return {
    connections,
    async close(graceMs = 1000) {
      accepting = false;
      clearInterval(sweeper);
      app.server.off('upgrade', onUpgrade);
      for (const connection of connections.values())
        connection.close(codes.reconnect, 'Server shutting down');
      const deadline = Date.now() + graceMs;
      while (connections.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      for (const connection of connections.values()) connection.terminate();
      while (connections.size > 0 && Date.now() < deadline + 500) await new Promise((r) => setTimeout(r, 10));
      await Promise.allSettled([...leaving]);
      wss.close();
    },
  };
}
