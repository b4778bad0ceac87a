import type { Database } from '../../../db/database.ts';
import type { DeviceNetworkRules } from '../network-rules.ts';
import type { ConnectorConfig } from '../repository.ts';
import type { ReadSink } from '../sink.ts';
import type { DeviceStatus } from '../status.ts';

/** Where connectors report (Fastify's `app.log` fits). */
export interface ConnectorLog {
  warn(obj: unknown, msg: string): void;
  info(obj: unknown, msg: string): void;
}

export interface ConnectorDeps {
  config: ConnectorConfig;
  sink: ReadSink;
  status: DeviceStatus;
  database: Database;
  log: ConnectorLog;
  /**
   * Where connectors may go (issue 25): clients connect only to addresses its egress policy
   * allows, checked at each connection; listeners use only its ports, bound to its address.
   */
  rules: DeviceNetworkRules;
  /** The server clock (tests move it). */
  now?: () => number;
}

/** A running protocol connector. */
export interface Connector {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** The port a listener listens on (0 before it started; clients: null). */
  readonly port: number | null;
}
