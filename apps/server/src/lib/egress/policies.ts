import net from 'node:net';
import type { EgressPolicy } from './policy.ts';

/** Webhooks: the public internet only, unless `WEBHOOK_ALLOW_PRIVATE` lifts every check. */
export function webhookPolicy(config: { WEBHOOK_ALLOW_PRIVATE: boolean }): EgressPolicy {
  return { allowAll: config.WEBHOOK_ALLOW_PRIVATE };
}

/**
 * Device connectors: the public internet, the private networks the operator lists in
 * `DEVICE_NETWORKS` (a timer's LAN), and loopback only with `DEVICE_ALLOW_LOOPBACK` (simulators).
 */
export function devicePolicy(config: {
  DEVICE_NETWORKS: readonly { address: string; bits: number; family: 'ipv4' | 'ipv6' }[];
  DEVICE_ALLOW_LOOPBACK: boolean;
}): EgressPolicy {
  const networks = new net.BlockList();
  for (const n of config.DEVICE_NETWORKS) networks.addSubnet(n.address, n.bits, n.family);
  return {
    networks,
    allowLoopback: config.DEVICE_ALLOW_LOOPBACK,
    privateRefusal: `not in DEVICE_NETWORKS (${config.DEVICE_NETWORKS.map((n) => `${n.address}/${n.bits}`).join(', ') || 'none opened'})`,
  };
}
