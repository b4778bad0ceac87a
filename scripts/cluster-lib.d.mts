// Types of cluster-lib.mjs for the TypeScript benches that import it.
import type { ChildProcess } from 'node:child_process';

export const root: string;
export class ClusterError extends Error {}
export function buildAll(): void;
export function ensureDatabase(databaseUrl: string, options?: { fresh?: boolean }): Promise<boolean>;

export interface ClusterNode {
  name: string;
  port: number;
  child: ChildProcess;
  up: boolean;
  failures: number;
  timeouts: number;
  log: string;
}

export interface Cluster {
  url: string;
  port: number;
  nodes: ClusterNode[];
  nginx: ChildProcess;
  confFile: string;
  dir: string;
  stop(): Promise<void>;
  kill(node: ClusterNode, signal?: NodeJS.Signals): void;
}

export function startCluster(options: {
  dir?: string;
  port?: number;
  count?: number;
  sticky?: boolean;
  databaseUrl: string;
  redisUrl: string;
  env?: Record<string, string>;
  log?: (line: string) => void;
  workerConnections?: number;
  /** Extra arguments of `node` for every node (e.g. --cpu-prof). */
  nodeArgs?: string[];
}): Promise<Cluster>;
