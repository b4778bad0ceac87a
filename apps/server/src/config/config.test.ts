import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(8080);
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.SEED_DEMO).toBe(true);
    expect(path.isAbsolute(config.dataDir)).toBe(true);
    expect(config.dataDir.endsWith(`${path.sep}data`)).toBe(true);
  });

  it('treats empty strings as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' }).PORT).toBe(8080);
  });

  it('names every bad variable in one error', () => {
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', SEED_DEMO: 'maybe' });
      expect.unreachable('should have thrown');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const variables = (error as ConfigError).problems.map((p) => p.variable).sort();
      expect(variables).toEqual(['DATABASE_URL', 'PORT', 'SEED_DEMO']);
      expect((error as Error).message).toContain('PORT:');
      expect((error as Error).message).toContain('postgres://');
    }
  });

  it('rejects out-of-range ports', () => {
    expect(() => loadConfig({ PORT: '70000' })).toThrow(/PORT/);
  });
});

describe('loadConfig: issue 13', () => {
  it('production refuses a missing PUBLIC_URL, naming it', () => {
    try {
      loadConfig({ NODE_ENV: 'production' });
      expect.unreachable('should have thrown');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems.map((p) => p.variable)).toEqual(['PUBLIC_URL']);
    }
    const ok = loadConfig({
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://x.example/',
      REALTIME_SECRET: 'a secret of our own',
    });
    expect(ok.publicUrl).toBe('https://x.example');
  });

  it('refuses the publicly known secret in every mode (issue 42); unset, the install makes its own', () => {
    for (const NODE_ENV of ['production', 'development', 'test'])
      expect(() =>
        loadConfig({
          NODE_ENV,
          PUBLIC_URL: 'https://x.example',
          REALTIME_SECRET: 'tempora-dev-secret-change-me',
        }),
      ).toThrow(/REALTIME_SECRET: is a publicly known secret/);
    // Unset: empty until buildApp gives the install's own (install-secrets.test.ts).
    expect(loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'https://x.example' }).REALTIME_SECRET).toBe('');
    expect(loadConfig({}).REALTIME_SECRET).toBe('');
    // An upstream Pusher service's secret cannot be made here.
    expect(() =>
      loadConfig({ REALTIME_ADAPTER: 'pusher-http', REALTIME_UPSTREAM_URL: 'https://api.pusher.example' }),
    ).toThrow(/REALTIME_SECRET: is required with REALTIME_ADAPTER=pusher-http/);
  });

  it('outside production the public URL is the listen address', () => {
    expect(loadConfig({}).publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ HOST: '127.0.0.1', PORT: '9000' }).publicUrl).toBe('http://127.0.0.1:9000');
    expect(loadConfig({ HOST: '::1', PORT: '9000' }).publicUrl).toBe('http://[::1]:9000');
  });

  it('TRUST_PROXY: off by default; a hop count, true, or addresses and CIDR ranges', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.0.2.1,::1' }).TRUST_PROXY).toEqual([
      '10.0.0.0/8',
      '192.0.2.1',
      '::1',
    ]);
    for (const bad of ['proxy.example', '10.0.0.0/33', '1.2.3.4/8/1'])
      expect(() => loadConfig({ TRUST_PROXY: bad })).toThrow(/TRUST_PROXY/);
  });
});

describe('OIDC_TRUSTED_ISSUERS', () => {
  it('takes issuer|audience pairs and refuses an issuer without its audience', () => {
    expect(
      loadConfig({ OIDC_TRUSTED_ISSUERS: 'https://a.example/|aud1, https://b.example|aud2|aud3' })
        .OIDC_TRUSTED_ISSUERS,
    ).toEqual([
      { issuer: 'https://a.example', audiences: ['aud1'] },
      { issuer: 'https://b.example', audiences: ['aud2', 'aud3'] },
    ]);
    expect(() => loadConfig({ OIDC_TRUSTED_ISSUERS: 'https://a.example' })).toThrow(
      /OIDC_TRUSTED_ISSUERS: 'https:\/\/a.example' needs its expected audience/,
    );
    expect(() => loadConfig({ OIDC_TRUSTED_ISSUERS: 'not a url|x' })).toThrow(/OIDC_TRUSTED_ISSUERS/);
  });
});

describe('loadConfig: device networks and ports (issue 25)', () => {
  const problems = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as ConfigError).problems;
    }
    return expect.unreachable('should have thrown');
  };

  it('is closed by default: no private network, no loopback, no listening port, listeners on 127.0.0.1', () => {
    const config = loadConfig({});
    expect(config.DEVICE_NETWORKS).toEqual([]);
    expect(config.DEVICE_ALLOW_LOOPBACK).toBe(false);
    expect(config.DEVICE_LISTEN_PORTS).toEqual([]);
    expect(config.DEVICE_LISTEN_HOST).toBe('127.0.0.1');
  });

  it('reads networks and port ranges', () => {
    const config = loadConfig({
      DEVICE_NETWORKS: '192.168.1.0/24, 10.0.0.0/8,fd00::/8,172.16.5.9',
      DEVICE_LISTEN_PORTS: '3097, 61611-61620',
      DEVICE_LISTEN_HOST: '0.0.0.0',
    });
    expect(config.DEVICE_NETWORKS).toEqual([
      { address: '192.168.1.0', bits: 24, family: 'ipv4' },
      { address: '10.0.0.0', bits: 8, family: 'ipv4' },
      { address: 'fd00::', bits: 8, family: 'ipv6' },
      { address: '172.16.5.9', bits: 32, family: 'ipv4' },
    ]);
    expect(config.DEVICE_LISTEN_PORTS).toEqual([
      [3097, 3097],
      [61611, 61620],
    ]);
    expect(config.DEVICE_LISTEN_HOST).toBe('0.0.0.0');
  });

  it('refuses networks outside the private ranges and bad port lists, naming each', () => {
    for (const bad of [
      '0.0.0.0/0',
      '127.0.0.0/8',
      '169.254.169.254',
      '10.0.0.0/7',
      '8.8.8.0/24',
      'lan',
      '10.0.0.0/33',
    ])
      expect(problems({ DEVICE_NETWORKS: bad }), bad).toEqual([
        { variable: 'DEVICE_NETWORKS', message: expect.stringContaining(bad) },
      ]);
    for (const bad of ['80', '5000-4000', '70000', 'mylaps', '3000-'])
      expect(problems({ DEVICE_LISTEN_PORTS: bad }), bad).toEqual([
        { variable: 'DEVICE_LISTEN_PORTS', message: expect.stringContaining(bad) },
      ]);
    expect(problems({ DEVICE_LISTEN_PORTS: '8000-9000' })).toEqual([
      { variable: 'DEVICE_LISTEN_PORTS', message: expect.stringContaining('8080') },
    ]);
    expect(problems({ DEVICE_LISTEN_HOST: 'everywhere' })[0]!.variable).toBe('DEVICE_LISTEN_HOST');
    expect(problems({ DEVICE_ALLOW_LOOPBACK: 'sure' })[0]!.variable).toBe('DEVICE_ALLOW_LOOPBACK');
  });
});
