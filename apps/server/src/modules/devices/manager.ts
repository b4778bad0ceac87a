/**
 * Runs the connectors configured in the database on this node: a client per RaceResult or Wiclax
 * device (Tempora connects), a listener per MYLAPS or ChronoTrack device (Tempora listens), and a
 * status for every device (HTTP-fed devices too). `reload()` reconciles the running connectors
 * with the configuration after every change: a changed device is stopped (its reads settled)
 * and started again.
 */
import type { Database } from '../../db/database.ts';
import { ChronoTrackListener } from './connectors/chronotrack-listener.ts';
import { MylapsListener } from './connectors/mylaps-listener.ts';
import { RaceResultClient } from './connectors/raceresult-client.ts';
import type { Connector, ConnectorLog } from './connectors/types.ts';
import { WiclaxClient } from './connectors/wiclax-client.ts';
import type { DeviceNetworkRules } from './network-rules.ts';
import { allConnectors, type ConnectorConfig } from './repository.ts';
import type { ReadSink } from './sink.ts';
import { DeviceStatus } from './status.ts';

/** The part of a configuration that, changed, restarts the connector (not the resume cursor). */
function signature(c: ConnectorConfig): string {
  const { cursorFile: _f, cursorPassing: _p, cursorLocations: _l, ...rest } = c;
  return JSON.stringify(rest);
}

export function createConnectorManager(deps: {
  database: Database;
  sink: ReadSink;
  log: ConnectorLog;
  /** Where connectors may connect and listen (network-rules.ts). */
  rules: DeviceNetworkRules;
}) {
  const running = new Map<string, { connector: Connector; signature: string }>();
  const statuses = new Map<string, DeviceStatus>();
  let active = false;
  let reconciling: Promise<void> = Promise.resolve();

  function statusOf(deviceId: string): DeviceStatus {
    let s = statuses.get(deviceId);
    if (!s) {
      s = new DeviceStatus();
      statuses.set(deviceId, s);
    }
    return s;
  }

  function make(config: ConnectorConfig): Connector | null {
    const common = {
      config,
      sink: deps.sink,
      status: statusOf(config.deviceId),
      database: deps.database,
      log: deps.log,
      rules: deps.rules,
    };
    switch (config.kind) {
      case 'raceresult':
        return config.host ? new RaceResultClient(common) : null;
      case 'wiclax':
        return config.host && config.port ? new WiclaxClient(common) : null;
      case 'mylaps':
        return config.listenPort ? new MylapsListener(common) : null;
      case 'chronotrack':
        return config.listenPort ? new ChronoTrackListener(common) : null;
      default:
        return null;
    }
  }

  async function reconcile() {
    const configs = active ? await allConnectors(deps.database) : [];
    const wanted = new Map(configs.filter((c) => c.enabled).map((c) => [c.deviceId, c]));
    for (const [id, run] of running) {
      const c = wanted.get(id);
      if (!c || signature(c) !== run.signature) {
        running.delete(id);
        await run.connector.stop();
      }
    }
    for (const c of configs) {
      if (!c.enabled) statusOf(c.deviceId).set('disabled');
      else if (!running.has(c.deviceId)) {
        const connector = make(c);
        if (!connector) {
          // HTTP-fed and Tempora-protocol devices have no connector: they are waiting until they post.
          const s = statusOf(c.deviceId);
          if (s.state === 'disabled') s.set('waiting');
          continue;
        }
        running.set(c.deviceId, { connector, signature: signature(c) });
        await connector.start();
      }
    }
  }

  return {
    /** Starts every enabled connector (at listen time). */
    start() {
      active = true;
      return this.reload();
    },
    /** Reconciles running connectors with the stored configuration (serialised). */
    reload(): Promise<void> {
      reconciling = reconciling.then(reconcile, reconcile);
      return reconciling;
    },
    status: statusOf,
    /** The running connector of a device (tests read a listener's port). */
    connector: (deviceId: string) => running.get(deviceId)?.connector ?? null,
    get active() {
      return active;
    },
    async stop() {
      active = false;
      await this.reload();
    },
  };
}

export type ConnectorManager = ReturnType<typeof createConnectorManager>;
