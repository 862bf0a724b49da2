import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { isbot } from 'isbot';
import type { TrackingOutcome } from '@/domain/measurement';

/*
 * The counting rules of docs/measurement.md, as pure functions: what a source is, what one
 * impression is, and which hit of a batch counts. record-hits.ts applies them in the transaction
 * that records the hits.
 */

export const DAY_MS = 86_400_000;

/** The rolling window of "one impression per source + user agent + offer + episode". */
export const DEDUPE_WINDOW_MS = DAY_MS;

/**
 * What a hit is counted by: an IPv4 address as it is, an IPv6 address by its /64 (one subscriber
 * usually holds a whole /64, and picks a new address in it at will). Held in memory only, for the
 * milliseconds before its hit is recorded as a salted hash.
 */
export function sourceOf(address: string): string {
  if (isIP(address) !== 6) return address;
  const parsed = ipaddr.IPv6.parse(address);
  if (parsed.isIPv4MappedAddress()) return parsed.toIPv4Address().toString();
  return `${parsed.parts
    .slice(0, 4)
    .map((p) => p.toString(16))
    .join(':')}::/64`;
}

/**
 * User agents already judged: a host's listeners come with a few thousand distinct ones, and the
 * list's one large regular expression costs microseconds a call. Emptied when it grows past its bound.
 */
const judgedAgents = new Map<string, boolean>();
const JUDGED_AGENTS_MAX = 10_000;

/** Known bots and crawlers, by the `isbot` package's maintained list; no user agent at all is one too. */
export function isKnownBot(userAgent: string): boolean {
  let bot = judgedAgents.get(userAgent);
  if (bot === undefined) {
    bot = userAgent.trim() === '' || isbot(userAgent);
    if (judgedAgents.size >= JUDGED_AGENTS_MAX) judgedAgents.clear();
    judgedAgents.set(userAgent, bot);
  }
  return bot;
}

/** `2026-12-01` for a time in that UTC day. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The UTC day `days` after `day` (before it, when negative). */
export function addDays(day: string, days: number): string {
  return utcDay(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS);
}

/**
 * Each salt as a KeyObject, made once: `createHmac` given bytes makes one on every call, which costs
 * several times the HMAC itself (a salt's Buffer is the same object for as long as salts.ts keeps it).
 */
const saltKeys = new WeakMap<Buffer, KeyObject>();

/** HMAC-SHA-256 under the day's salt, its first 16 bytes in hex: not reversible once the salt is gone. */
function keyed(salt: Buffer, text: string): string {
  let key = saltKeys.get(salt);
  if (!key) saltKeys.set(salt, (key = createSecretKey(salt)));
  return createHmac('sha256', key).update(text).digest('hex').slice(0, 32);
}

export const sourceHashOf = (salt: Buffer, source: string): string => keyed(salt, `source\n${source}`);

/** One impression's identity under a salt: source, user agent and episode (the offer is a column of its own). */
export const dedupeKeyOf = (salt: Buffer, source: string, userAgent: string, episode: string | null): string =>
  keyed(salt, `impression\n${source}\n${userAgent}\n${episode ?? ''}`);

/**
 * A macro's value as the host's ad server filled it in: cut to `maxLength`, and absent when empty or
 * still a placeholder (`{episode_id}`, or any `{…}`) because the ad server did not replace it.
 */
export function macroValue(raw: string | null, maxLength: number): string | null {
  const value = raw?.trim();
  if (!value || /^\{.*\}$/.test(value)) return null;
  return value.slice(0, maxLength);
}

/** The `ts` macro: Unix seconds or milliseconds, or an ISO 8601 time; anything else reads as absent. */
export function hostTimestampOf(value: string | null): Date | null {
  if (!value) return null;
  let ms: number;
  if (/^\d{9,11}$/.test(value)) ms = Number(value) * 1000;
  else if (/^\d{12,14}$/.test(value)) ms = Number(value);
  else if (/^\d{4}-\d{2}-\d{2}T/.test(value)) ms = Date.parse(value);
  else return null;
  // A time Postgres and the API can both say (years 1970–9999).
  return Number.isFinite(ms) && ms >= 0 && ms < 253_402_300_800_000 ? new Date(ms) : null;
}

/** A hit ready to be judged: its offer, when it was received, and its keys under the salts that can still dedupe it. */
export interface JudgedHit {
  offerId: string;
  receivedAt: number;
  bot: boolean;
  /** Its source is flagged for the hit's UTC day (more hits than the daily limit). */
  abnormalSource: boolean;
  /** Its dedupe key under its own day’s salt (stored) first, then under the neighbouring days’ salts that exist. */
  keys: string[];
}

/**
 * What each hit of a batch comes to, in order of receipt: a bot; a hit of an abnormal source; a
 * duplicate of an impression counted for the same offer and key in the 24 hours before it
 * (`counted` holds the latest such time per `offerId key`, from earlier batches; the batch's own
 * counted hits are added as they are judged); or an impression.
 */
export function judgeHits(hits: readonly JudgedHit[], counted: Map<string, number>): TrackingOutcome[] {
  return hits.map((hit) => {
    if (hit.bot) return 'bot';
    if (hit.abnormalSource) return 'abnormal';
    const within = hit.keys.some((key) => {
      const at = counted.get(`${hit.offerId} ${key}`);
      return at !== undefined && at > hit.receivedAt - DEDUPE_WINDOW_MS;
    });
    if (within) return 'duplicate';
    counted.set(`${hit.offerId} ${hit.keys[0]!}`, hit.receivedAt);
    return 'counted';
  });
}

/** How a flush locks one day's partition of tracking_hits: it writes the day, reads its keys, or both. */
export type PartitionLock = 'row exclusive' | 'share' | 'share row exclusive';

/**
 * The partitions a flush of hits of `days` locks (record-hits.ts), oldest first: ROW EXCLUSIVE on
 * the days it writes, SHARE on the other days whose keys it reads (the day before each hit's, and
 * the day after when that day has ended before `today`), SHARE ROW EXCLUSIVE on a day it does both.
 */
export function partitionLocks(days: readonly string[], today: string): Array<{ day: string; mode: PartitionLock }> {
  const writes = new Set(days);
  const reads = new Set(days.flatMap((day) => [addDays(day, -1), ...(day < today ? [addDays(day, 1)] : [])]));
  return [...new Set([...writes, ...reads])].sort().map((day) => ({
    day,
    mode: writes.has(day) ? (reads.has(day) ? 'share row exclusive' : 'row exclusive') : 'share',
  }));
}
