import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * Lua scripts of the Redis adapter. Each runs atomically, so two nodes deciding at once whether
 * a presence member is new (member_added) or gone (member_removed) cannot both be right.
 *
 * Keys, under the configured prefix P: `P nodes` (sorted set: node id → last heartbeat, ms),
 * `P n:{node}:subs` (hash: channel → that node's subscription count), `P n:{node}:pres:{channel}`
 * (hash: user id → user_info JSON). A node is live while its heartbeat is younger than
 * `deadAfter`; only live nodes count. Keys other than `P nodes` are built inside the scripts,
 * which standalone Redis allows (not Redis Cluster).
 *
 * Common ARGV: [1] prefix, [2] now (ms), [3] deadAfter (ms).
 */
const LIVE = `
local P = ARGV[1]
local live = redis.call('ZRANGEBYSCORE', KEYS[1], tonumber(ARGV[2]) - tonumber(ARGV[3]), '+inf')
local function elsewhere(node, channel, user)
  for _, n in ipairs(live) do
    if n ~= node and redis.call('HEXISTS', P .. 'n:' .. n .. ':pres:' .. channel, user) == 1 then return true end
  end
  return false
end
`;

/** ARGV [4] node [5] channel [6] user [7] info [8] ttl → 1 when no other live node has the user. */
export const JOIN = `${LIVE}
local key = P .. 'n:' .. ARGV[4] .. ':pres:' .. ARGV[5]
local other = elsewhere(ARGV[4], ARGV[5], ARGV[6])
redis.call('HSET', key, ARGV[6], ARGV[7])
redis.call('PEXPIRE', key, ARGV[8])
if other then return 0 end
return 1`;

/** ARGV [4] node [5] channel [6] user → 1 when no live node has the user any more. */
export const LEAVE = `${LIVE}
redis.call('HDEL', P .. 'n:' .. ARGV[4] .. ':pres:' .. ARGV[5], ARGV[6])
if elsewhere(ARGV[4], ARGV[5], ARGV[6]) then return 0 end
return 1`;

/** ARGV [4] channel → flat [user, info, …] over live nodes, each user once. */
export const MEMBERS = `${LIVE}
local seen, out = {}, {}
for _, n in ipairs(live) do
  local h = redis.call('HGETALL', P .. 'n:' .. n .. ':pres:' .. ARGV[4])
  for i = 1, #h, 2 do
    if not seen[h[i]] then seen[h[i]] = true; table.insert(out, h[i]); table.insert(out, h[i + 1]) end
  end
end
return out`;

/**
 * ARGV [4] channel prefix [5] one channel ('' for all) → flat [channel, subscriptions, users, …]
 * of occupied channels; users is -1 for channels that are not presence channels.
 */
export const STATS = `${LIVE}
local subs, order = {}, {}
local function add(c, v)
  if not subs[c] then subs[c] = 0; table.insert(order, c) end
  subs[c] = subs[c] + tonumber(v)
end
for _, n in ipairs(live) do
  local key = P .. 'n:' .. n .. ':subs'
  if ARGV[5] ~= '' then
    local v = redis.call('HGET', key, ARGV[5])
    if v then add(ARGV[5], v) end
  else
    local h = redis.call('HGETALL', key)
    for i = 1, #h, 2 do
      if string.sub(h[i], 1, #ARGV[4]) == ARGV[4] then add(h[i], h[i + 1]) end
    end
  end
end
local out = {}
for _, c in ipairs(order) do
  if subs[c] > 0 then
    local users = -1
    if string.sub(c, 1, 9) == 'presence-' then
      local seen = {}
      users = 0
      for _, n in ipairs(live) do
        for _, u in ipairs(redis.call('HKEYS', P .. 'n:' .. n .. ':pres:' .. c)) do
          if not seen[u] then seen[u] = true; users = users + 1 end
        end
      end
    end
    table.insert(out, c); table.insert(out, subs[c]); table.insert(out, users)
  end
end
return out`;

/**
 * Removes nodes whose heartbeat stopped (crashed, partitioned) and returns flat
 * [channel, user, …] of their presence members present on no live node (member_removed).
 */
export const REAP = `${LIVE}
local dead = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. (tonumber(ARGV[2]) - tonumber(ARGV[3])))
local removed = {}
for _, d in ipairs(dead) do
  redis.call('ZREM', KEYS[1], d)
  local subsKey = P .. 'n:' .. d .. ':subs'
  for _, c in ipairs(redis.call('HKEYS', subsKey)) do
    if string.sub(c, 1, 9) == 'presence-' then
      local key = P .. 'n:' .. d .. ':pres:' .. c
      for _, u in ipairs(redis.call('HKEYS', key)) do
        if not elsewhere(d, c, u) then table.insert(removed, c); table.insert(removed, u) end
      end
      redis.call('DEL', key)
    end
  end
  redis.call('DEL', subsKey)
end
return removed`;

const shas = new Map<string, string>();

/** Runs a script by its SHA1, loading it on first use (NOSCRIPT after a Redis restart too). */
export async function runScript(redis: Redis, script: string, key: string, args: (string | number)[]) {
  let sha = shas.get(script);
  if (!sha) {
    sha = createHash('sha1').update(script).digest('hex');
    shas.set(script, sha);
  }
  try {
    return (await redis.evalsha(sha, 1, key, ...args)) as unknown;
  } catch (error) {
    if (!String((error as Error).message).includes('NOSCRIPT')) throw error;
    return (await redis.eval(script, 1, key, ...args)) as unknown;
  }
}
