import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { environmentsSchema } from '@tempora/contracts';
import { describe, expect, it } from 'vitest';
import { buildTestApp, testConfig } from '../../../test/helpers.ts';
import { loadEnvironments } from './service.ts';

describe('environment configurations (spec §9)', () => {
  it('serves dev, prod and cis, all pointing at this server by default', async () => {
    const app = await buildTestApp({ REALTIME_KEY: 'k-123' });
    const res = await app.inject({ url: '/api/env-config' });
    await app.close();
    expect(res.statusCode).toBe(200);
    const body = environmentsSchema.parse(res.json());
    for (const env of [body.dev, body.prod, body.cis]) {
      expect(env.apiUrlBase).toBe('/api/');
      expect(env.userApiUrlBase).toBe('/api/');
      expect(env.realtime).toMatchObject({ key: 'k-123', cluster: 'eu' });
    }
  });

  it('merges an operator file so URLs change without a rebuild', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'envcfg-')), 'env.json');
    fs.writeFileSync(
      file,
      JSON.stringify({ cis: { resultsApiUrlBase: 'https://cis.example/api/', realtime: { port: 6001 } } }),
    );
    const envs = loadEnvironments(testConfig({ ENV_CONFIG_FILE: file }));
    expect(envs.cis.resultsApiUrlBase).toBe('https://cis.example/api/');
    expect(envs.cis.realtime.port).toBe(6001);
    expect(envs.cis.realtime.cluster).toBe('eu');
    expect(envs.prod.resultsApiUrlBase).toBe('/api/');
  });

  it('stops the start with the variable named when the file is invalid', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'envcfg-')), 'env.json');
    fs.writeFileSync(file, JSON.stringify({ prod: { apiUrlBase: 42 } }));
    expect(() => loadEnvironments(testConfig({ ENV_CONFIG_FILE: file }))).toThrow(
      /ENV_CONFIG_FILE.*prod\.apiUrlBase/,
    );
    expect(() => loadEnvironments(testConfig({ ENV_CONFIG_FILE: '/nonexistent.json' }))).toThrow(
      /ENV_CONFIG_FILE/,
    );
  });
});
