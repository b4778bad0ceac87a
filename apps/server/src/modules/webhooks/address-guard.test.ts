import { describe, expect, it } from 'vitest';
import {
  assertDeliverable,
  assertPublicUrl,
  guardedLookup,
  isPublicAddress,
  RefusedUrl,
} from './address-guard.ts';

describe('webhook address guard (SSRF)', () => {
  it('tells public addresses from internal ones, IPv4 and IPv6', () => {
    for (const address of ['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111', '1.1.1.1'])
      expect(isPublicAddress(address), address).toBe(true);
    for (const address of [
      '127.0.0.1',
      '127.255.255.254',
      '0.0.0.0',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:8.8.8.8',
      '64:ff9b::7f00:1',
      '2002:7f00:1::',
      'fc00::1',
      'fd12:3456::1',
      'fe80::1',
      'ff02::1',
      'not an address',
    ])
      expect(isPublicAddress(address), address).toBe(false);
  });

  it('refuses internal URLs whatever their spelling, schemes other than http(s) and credentials', async () => {
    const refused = [
      'http://127.0.0.1:8080/x',
      'http://2130706433/',
      'http://0x7f000001/',
      'http://0x7f.1/',
      'http://017700000001/',
      'http://127.1/',
      'http://0/',
      'http://[::1]/',
      'http://[::]/',
      'http://[::ffff:127.0.0.1]/',
      'http://[::ffff:a9fe:a9fe]/',
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.1/',
      'http://192.168.0.10/',
      'http://[fd00::1]/',
      'http://[fe80::1]/',
      'http://localhost:8080/',
      'http://LOCALHOST./',
      'http://api.localhost/',
      'ftp://93.184.215.14/',
      'file:///etc/passwd',
      'gopher://93.184.215.14/',
      'http://user:pw@93.184.215.14/',
      'not a url',
    ];
    for (const url of refused) {
      await expect(assertPublicUrl(url, false), url).rejects.toBeInstanceOf(RefusedUrl);
    }
    await expect(assertPublicUrl('http://93.184.215.14/hook', false)).resolves.toBeUndefined();
    await expect(assertPublicUrl('https://[2606:4700:4700::1111]/hook', false)).resolves.toBeUndefined();
    // Allowed private addresses lift the address check only, never the scheme or credentials.
    await expect(assertPublicUrl('http://127.0.0.1:9/x', true)).resolves.toBeUndefined();
    await expect(assertPublicUrl('ftp://127.0.0.1/x', true)).rejects.toBeInstanceOf(RefusedUrl);
    await expect(assertPublicUrl('http://u:p@127.0.0.1/x', true)).rejects.toBeInstanceOf(RefusedUrl);
  });

  it('refuses at connection time a name that resolves to an internal address', async () => {
    const looked = await new Promise<{ error: NodeJS.ErrnoException | null }>((resolve) =>
      guardedLookup('localhost', { all: true }, (error) => resolve({ error })),
    );
    expect(looked.error).toBeInstanceOf(RefusedUrl);
    expect(looked.error?.code).toBe('EADDRREFUSED');
  });

  it('checks again before delivery (an IP literal never reaches the resolver)', () => {
    expect(() => assertDeliverable('http://2130706433:9/x', false)).toThrow(RefusedUrl);
    expect(() => assertDeliverable('http://[::ffff:127.0.0.1]:9/x', false)).toThrow(RefusedUrl);
    expect(assertDeliverable('http://127.0.0.1:9/x', true).hostname).toBe('127.0.0.1');
    expect(assertDeliverable('http://93.184.215.14/x', false).hostname).toBe('93.184.215.14');
  });
});
