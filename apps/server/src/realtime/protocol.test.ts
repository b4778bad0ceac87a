import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { md5Hex, parseQuery, signRequest, verifyRequest } from './http-signature.ts';
import {
  channelType,
  hmacHex,
  parseChannelData,
  parseClientMessage,
  signChannel,
  verifyChannelAuth,
} from './protocol.ts';

const require = createRequire(import.meta.url);
// The official SDK's own signer and channel authoriser are the golden reference.
const sdkRequests = require('pusher/lib/requests') as {
  createSignedQueryString(token: unknown, request: object): string;
};
const SdkToken = require('pusher/lib/token') as new (key: string, secret: string) => unknown;
const sdkAuth = require('pusher/lib/auth') as {
  getSocketSignature(
    pusher: unknown,
    token: unknown,
    channel: string,
    socketId: string,
    data?: unknown,
  ): {
    auth: string;
    channel_data?: string;
  };
};

describe('channel names', () => {
  it('types channels by prefix (encrypted ones are private, a user channel is its own type) and refuses invalid names', () => {
    expect(channelType('results-20km')).toEqual({ type: 'public' });
    expect(channelType('private-user-abc')).toEqual({ type: 'private' });
    expect(channelType('presence-org-1')).toEqual({ type: 'presence' });
    expect(channelType('private-encrypted-x')).toEqual({ type: 'private' });
    expect(channelType('#server-to-user-u1')).toEqual({ type: 'user' });
    for (const bad of [
      '',
      'a b',
      'é',
      'x/y',
      '#server-to-user-',
      '#server-to-user-a b',
      '#other',
      'a'.repeat(165),
    ]) {
      expect(channelType(bad)).toHaveProperty('error');
    }
    expect(channelType('A-z_0=9@,.;')).toEqual({ type: 'public' });
  });
});

describe('client messages', () => {
  it('parses the messages pusher-js sends', () => {
    expect(parseClientMessage('{"event":"pusher:ping","data":{}}')).toEqual({
      message: { event: 'pusher:ping' },
    });
    expect(parseClientMessage('{"event":"pusher:subscribe","data":{"auth":"","channel":"a"}}')).toEqual({
      message: { event: 'pusher:subscribe', data: { auth: '', channel: 'a' } },
    });
    expect(parseClientMessage('{"event":"pusher:unsubscribe","data":{"channel":"a"}}')).toEqual({
      message: { event: 'pusher:unsubscribe', channel: 'a' },
    });
    expect(parseClientMessage('{"event":"client-x","channel":"private-a","data":{"n":1}}')).toEqual({
      message: { event: 'client-x', channel: 'private-a', data: '{"n":1}' },
    });
  });

  it('returns errors for anything else, never throws', () => {
    for (const raw of [
      '',
      'nope',
      '[]',
      'null',
      '1',
      '{"event":3}',
      '{"event":"pusher:subscribe"}',
      '{"event":"x"}',
    ]) {
      expect(parseClientMessage(raw)).toHaveProperty('error');
    }
  });

  it('reads presence channel_data', () => {
    expect(parseChannelData('{"user_id":"u1","user_info":{"name":"A"}}')).toEqual({
      id: 'u1',
      info: { name: 'A' },
    });
    expect(parseChannelData('{"user_id":7}')).toEqual({ id: '7', info: null });
    expect(parseChannelData('{"user_info":{}}')).toBeNull();
    expect(parseChannelData('{')).toBeNull();
  });
});

describe('channel authorisation signature', () => {
  it('matches the official SDK and is checked exactly', () => {
    const token = new SdkToken('key', 'secret-1234');
    const sdk = sdkAuth.getSocketSignature({}, token, 'private-a', '123.456');
    expect(signChannel('key', 'secret-1234', '123.456', 'private-a')).toBe(sdk.auth);
    const presence = sdkAuth.getSocketSignature({}, token, 'presence-a', '1.2', { user_id: 'u' });
    expect(
      verifyChannelAuth('key', 'secret-1234', '1.2', 'presence-a', presence.auth, presence.channel_data),
    ).toBe(true);
    expect(
      verifyChannelAuth('key', 'secret-1234', '1.3', 'presence-a', presence.auth, presence.channel_data),
    ).toBe(false);
    expect(verifyChannelAuth('key', 'secret-1234', '1.2', 'private-a', undefined)).toBe(false);
    expect(verifyChannelAuth('key', 'secret-1234', '1.2', 'private-a', 'key:00')).toBe(false);
  });
});

describe('HTTP API request signature', () => {
  const token = new SdkToken('key', 'secret-1234');
  const path = '/apps/app/events';
  const body = '{"name":"e","data":"{}","channels":["a"]}';

  it('accepts what the official SDK signs', () => {
    const query = sdkRequests.createSignedQueryString(token, { method: 'POST', path, body });
    const check = verifyRequest({
      key: 'key',
      secret: 'secret-1234',
      method: 'POST',
      path,
      params: parseQuery(query),
      rawBody: body,
    });
    expect(check).toEqual({ ok: true });
    const params = { info: 'user_count,subscription_count', filter_by_prefix: 'presence-' };
    const get = sdkRequests.createSignedQueryString(token, {
      method: 'GET',
      path: '/apps/app/channels',
      params,
    });
    expect(
      verifyRequest({
        key: 'key',
        secret: 'secret-1234',
        method: 'GET',
        path: '/apps/app/channels',
        params: parseQuery(get),
        rawBody: '',
      }),
    ).toEqual({ ok: true });
  });

  it('refuses a wrong secret, body, key, version or an old timestamp', () => {
    const query = signRequest({ key: 'key', secret: 'secret-1234', method: 'POST', path, body });
    const base = {
      key: 'key',
      secret: 'secret-1234',
      method: 'POST',
      path,
      params: parseQuery(query),
      rawBody: body,
    };
    expect(verifyRequest(base).ok).toBe(true);
    expect(verifyRequest({ ...base, secret: 'other-secret' })).toEqual({ ok: false, reason: 'signature' });
    expect(verifyRequest({ ...base, rawBody: `${body} ` })).toEqual({ ok: false, reason: 'body_md5' });
    expect(verifyRequest({ ...base, key: 'other' })).toEqual({ ok: false, reason: 'key' });
    expect(verifyRequest({ ...base, now: Date.now() + 601_000 })).toEqual({ ok: false, reason: 'timestamp' });
    const v2 = new Map(base.params).set('auth_version', '2.0');
    expect(verifyRequest({ ...base, params: v2 })).toEqual({ ok: false, reason: 'version' });
    expect(verifyRequest({ ...base, params: new Map() })).toEqual({ ok: false, reason: 'missing' });
    expect(md5Hex('')).toBe('d41d8cd98f00b204e9800998ecf8427e');
    expect(hmacHex('k', 't')).toMatch(/^[0-9a-f]{64}$/);
  });
});
