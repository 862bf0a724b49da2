import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  dedupeKeyOf,
  DAY_MS,
  hostTimestampOf,
  isKnownBot,
  judgeHits,
  macroValue,
  partitionLocks,
  sourceHashOf,
  sourceOf,
  type JudgedHit,
} from './hit-rules';

describe('the counting rules', () => {
  it('count an IPv4 listener by address and an IPv6 one by its /64, IPv4-mapped as IPv4', () => {
    expect(sourceOf('203.0.113.7')).toBe('203.0.113.7');
    expect(sourceOf('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(sourceOf('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(sourceOf('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(sourceOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('take known bots and an empty user agent as bots, and listeners’ apps as listeners', () => {
    expect(isKnownBot('Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)')).toBe(true);
    expect(isKnownBot('curl/8.5.0')).toBe(true);
    expect(isKnownBot('')).toBe(true);
    expect(isKnownBot('AppleCoreMedia/1.0.0.21E236 (iPhone; U; CPU OS 17_4 like Mac OS X; en_us)')).toBe(false);
    expect(isKnownBot('Spotify/8.9.30 iOS/17.4 (iPhone15,2)')).toBe(false);
  });

  it('hash with the day’s salt: another salt gives another hash, and nothing of the address shows', () => {
    const [a, b] = [randomBytes(32), randomBytes(32)];
    expect(sourceHashOf(a, '203.0.113.7')).toMatch(/^[0-9a-f]{32}$/);
    expect(sourceHashOf(a, '203.0.113.7')).not.toBe(sourceHashOf(b, '203.0.113.7'));
    expect(dedupeKeyOf(a, '203.0.113.7', 'ua', 'ep')).not.toBe(dedupeKeyOf(a, '203.0.113.7', 'ua', 'ep2'));
    expect(dedupeKeyOf(a, '203.0.113.7', 'ua', null)).toBe(dedupeKeyOf(a, '203.0.113.7', 'ua', ''));
  });

  it('read a macro left as its placeholder as absent, and the host’s timestamp in seconds, milliseconds or ISO 8601', () => {
    expect(macroValue('{episode_id}', 10)).toBeNull();
    expect(macroValue('', 10)).toBeNull();
    expect(macroValue(' ep-1 ', 10)).toBe('ep-1');
    expect(macroValue('x'.repeat(20), 10)).toBe('x'.repeat(10));
    expect(hostTimestampOf('1764400000')).toEqual(new Date(1_764_400_000_000));
    expect(hostTimestampOf('1764400000123')).toEqual(new Date(1_764_400_000_123));
    expect(hostTimestampOf('2026-12-01T10:00:00Z')).toEqual(new Date('2026-12-01T10:00:00Z'));
    expect(hostTimestampOf('yesterday')).toBeNull();
  });

  it('count a listener once in a rolling 24 hours: a repeat inside it is a duplicate, and does not extend it', () => {
    const t = Date.parse('2026-12-01T10:00:00Z');
    const hit = (receivedAt: number, extra: Partial<JudgedHit> = {}): JudgedHit => ({
      offerId: 'off_1',
      receivedAt,
      bot: false,
      abnormalSource: false,
      keys: ['k'],
      ...extra,
    });
    const counted = new Map<string, number>();
    expect(judgeHits([hit(t), hit(t + 1), hit(t + DAY_MS - 1), hit(t + DAY_MS), hit(t + DAY_MS + 5)], counted)).toEqual([
      'counted',
      'duplicate',
      'duplicate',
      'counted',
      'duplicate',
    ]);
    // A key under yesterday's salt (the second of a hit's keys) finds yesterday's impression.
    expect(judgeHits([hit(t + 2 * DAY_MS - 10, { keys: ['k2', 'k'] })], counted)).toEqual(['duplicate']);
    expect(judgeHits([hit(t, { offerId: 'off_2' }), hit(t, { bot: true }), hit(t, { abnormalSource: true })], new Map())).toEqual([
      'counted',
      'bot',
      'abnormal',
    ]);
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });
});

describe('the partitions a flush locks', () => {
  it('writes its day and reads the day before: hits of one day never wait for each other', () => {
    expect(partitionLocks(['2026-12-01'], '2026-12-01')).toEqual([
      { day: '2026-11-30', mode: 'share' },
      { day: '2026-12-01', mode: 'row exclusive' },
    ]);
  });

  it('reads the day after too once its day has ended, so either side of midnight takes turns', () => {
    // Yesterday's late hit (read: today's keys) meets today's hit (read: yesterday's keys) on both days.
    expect(partitionLocks(['2026-11-30'], '2026-12-01')).toEqual([
      { day: '2026-11-29', mode: 'share' },
      { day: '2026-11-30', mode: 'row exclusive' },
      { day: '2026-12-01', mode: 'share' },
    ]);
    expect(partitionLocks(['2026-12-01', '2026-11-30'], '2026-12-01')).toEqual([
      { day: '2026-11-29', mode: 'share' },
      { day: '2026-11-30', mode: 'share row exclusive' },
      { day: '2026-12-01', mode: 'share row exclusive' },
    ]);
  });
});
