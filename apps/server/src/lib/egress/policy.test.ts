import net from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  canonicalHost,
  type EgressPolicy,
  guardedLookup,
  isPrivateNetwork,
  isPublicAddress,
  RefusedAddress,
  refusalOf,
  resolveAllowed,
} from './policy.ts';
import { assertDeliverable, assertUrlAllowed } from './url.ts';

const publicOnly: EgressPolicy = {};
const all: EgressPolicy = { allowAll: true };
const RefusedUrl = RefusedAddress;
const assertPublicUrl = (url: string, allowPrivate: boolean) =>
  assertUrlAllowed(url, allowPrivate ? all : publicOnly);

describe('egress policy (SSRF): addresses and URLs', () => {
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
      guardedLookup(publicOnly)('localhost', { all: true }, (error) => resolve({ error })),
    );
    expect(looked.error).toBeInstanceOf(RefusedUrl);
    expect(looked.error?.code).toBe('EADDRREFUSED');
  });

  it('checks again before delivery (an IP literal never reaches the resolver)', () => {
    expect(() => assertDeliverable('http://2130706433:9/x', publicOnly)).toThrow(RefusedUrl);
    expect(() => assertDeliverable('http://[::ffff:127.0.0.1]:9/x', publicOnly)).toThrow(RefusedUrl);
    expect(assertDeliverable('http://127.0.0.1:9/x', all).hostname).toBe('127.0.0.1');
    expect(assertDeliverable('http://93.184.215.14/x', publicOnly).hostname).toBe('93.184.215.14');
  });
});

describe('egress policy for devices: listed private networks, loopback only when allowed', () => {
  const lan = new net.BlockList();
  lan.addSubnet('192.168.1.0', 24, 'ipv4');
  lan.addSubnet('fd12:3456::', 32, 'ipv6');
  const devices: EgressPolicy = { networks: lan, privateRefusal: 'not in DEVICE_NETWORKS' };
  const simulators: EgressPolicy = { ...devices, allowLoopback: true };

  it('canonicalises every spelling of an address as a connection would read it', () => {
    for (const host of ['2130706433', '0x7f000001', '017700000001', '0x7f.1', '127.1', '127.0.0.1'])
      expect(canonicalHost(host), host).toEqual({ ip: '127.0.0.1' });
    expect(canonicalHost('::ffff:127.0.0.1')).toEqual({ ip: '::ffff:7f00:1' });
    expect(canonicalHost('[::1]')).toEqual({ ip: '::1' });
    expect(canonicalHost('Decoder.LAN.')).toEqual({ name: 'decoder.lan' });
    expect(() => canonicalHost('a b')).toThrow(RefusedAddress);
  });

  it('opens a listed private network, never loopback, link-local, metadata or mapped forms', () => {
    expect(refusalOf('192.168.1.50', devices)).toBeNull();
    expect(refusalOf('fd12:3456::9', devices)).toBeNull();
    expect(refusalOf('8.8.8.8', devices)).toBeNull();
    expect(refusalOf('192.168.2.50', devices)).toMatch(/private address, not in DEVICE_NETWORKS/);
    expect(refusalOf('10.0.0.1', devices)).toMatch(/not in DEVICE_NETWORKS/);
    for (const address of ['127.0.0.1', '::1', '169.254.169.254', '0.0.0.0', '224.0.0.1', 'fe80::1'])
      expect(refusalOf(address, devices), address).not.toBeNull();
    expect(refusalOf('127.0.0.1', devices)).toMatch(/loopback/);
    expect(refusalOf('169.254.169.254', devices)).toMatch(/metadata/);
    // Allowing loopback opens 127/8 and ::1, nothing else: not the mapped form, not metadata.
    expect(refusalOf('127.0.0.1', simulators)).toBeNull();
    expect(refusalOf('::1', simulators)).toBeNull();
    for (const address of ['::ffff:127.0.0.1', '0.0.0.0', '169.254.169.254', 'fd00:ec2::254'])
      expect(refusalOf(address, simulators), address).not.toBeNull();
  });

  it('resolves a name and refuses it when any address it resolves to is refused', async () => {
    await expect(resolveAllowed('localhost', devices)).rejects.toThrow(/loopback/);
    await expect(resolveAllowed('0x7f000001', devices)).rejects.toThrow(/loopback/);
    await expect(resolveAllowed('192.168.1.7', devices)).resolves.toEqual({
      address: '192.168.1.7',
      family: 4,
    });
    await expect(resolveAllowed('localhost', simulators)).resolves.toMatchObject({
      family: expect.any(Number),
    });
    await expect(resolveAllowed('no-such-host.invalid', devices)).rejects.toThrow(/does not resolve/);
  });

  it('lets an operator open only networks inside a private range', () => {
    expect(isPrivateNetwork('192.168.0.0', 16)).toBe(true);
    expect(isPrivateNetwork('10.20.0.0', 16)).toBe(true);
    expect(isPrivateNetwork('fd00::', 8)).toBe(true);
    expect(isPrivateNetwork('10.0.0.0', 7)).toBe(false); // wider than 10/8
    expect(isPrivateNetwork('0.0.0.0', 0)).toBe(false);
    expect(isPrivateNetwork('127.0.0.0', 8)).toBe(false);
    expect(isPrivateNetwork('169.254.0.0', 16)).toBe(false);
    expect(isPrivateNetwork('8.8.8.0', 24)).toBe(false);
  });
});
