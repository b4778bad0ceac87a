/**
 * Where device connectors may connect and listen (issue 25). A connector's address is a user's
 * input (owners and timekeepers of any organisation set it): clients (RaceResult, Wiclax) reach
 * only what the server's one egress policy allows for devices (lib/egress: the public internet,
 * the operator's `DEVICE_NETWORKS`, loopback with `DEVICE_ALLOW_LOOPBACK`), checked here at
 * registration and again at every connection (reconnecting-client.ts); listeners (MYLAPS,
 * ChronoTrack) use only a port of `DEVICE_LISTEN_PORTS`, one device per port, bound to
 * `DEVICE_LISTEN_HOST`.
 */
import type { Config } from '../../config/config.ts';
import { AppError, errors } from '../../errors.ts';
import { describePortRanges, inPortRanges, type PortRanges } from '../../lib/egress/listen-ports.ts';
import { devicePolicy } from '../../lib/egress/policies.ts';
import { type EgressPolicy, RefusedAddress, resolveAllowed } from '../../lib/egress/policy.ts';

export interface DeviceNetworkRules {
  egress: EgressPolicy;
  listenPorts: PortRanges;
  listenHost: string;
}

export function deviceNetworkRules(
  config: Pick<
    Config,
    'DEVICE_NETWORKS' | 'DEVICE_ALLOW_LOOPBACK' | 'DEVICE_LISTEN_PORTS' | 'DEVICE_LISTEN_HOST'
  >,
): DeviceNetworkRules {
  return {
    egress: devicePolicy(config),
    listenPorts: config.DEVICE_LISTEN_PORTS,
    listenHost: config.DEVICE_LISTEN_HOST,
  };
}

/** Why a device may not listen on a port (null: it may), naming the ports that are allowed. */
export function listenPortRefusal(rules: DeviceNetworkRules, port: number): string | null {
  if (!rules.listenPorts.length)
    return 'this server opens no port to devices (DEVICE_LISTEN_PORTS is empty): use a device that Tempora connects to, or ask the operator';
  if (inPortRanges(rules.listenPorts, port)) return null;
  return `port ${port} is not among the ports this server opens to devices: ${describePortRanges(rules.listenPorts)}`;
}

/**
 * Checks a connector's address at registration (and change): a host the egress policy refuses is
 * a 400 naming the reason; a listening port outside the operator's range a 400 naming the range;
 * a port another device listens on a 409.
 */
export async function checkDeviceAddress(
  rules: DeviceNetworkRules,
  c: { host: string | null; listenPort: number | null },
  portTaken: (port: number) => Promise<boolean>,
): Promise<void> {
  if (c.host) {
    try {
      await resolveAllowed(c.host, rules.egress);
    } catch (e) {
      if (!(e instanceof RefusedAddress)) throw e;
      const message = `Tempora may not connect to this address: ${e.message}`;
      throw errors.badRequest('DEVICE_ADDRESS_REFUSED', message, [{ field: 'host', message: e.message }]);
    }
  }
  if (c.listenPort !== null) {
    const why = listenPortRefusal(rules, c.listenPort);
    if (why)
      throw errors.badRequest('LISTEN_PORT_REFUSED', `Tempora may not listen on this port: ${why}`, [
        { field: 'listenPort', message: why },
      ]);
    if (await portTaken(c.listenPort))
      throw new AppError(409, 'LISTEN_PORT_TAKEN', `Another device already listens on port ${c.listenPort}`, [
        { field: 'listenPort', message: 'taken by another device' },
      ]);
  }
}
