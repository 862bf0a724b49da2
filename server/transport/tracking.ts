import type { IncomingMessage, ServerResponse } from 'node:http';
import { config } from '@/server/config';
import { clientAddressOf, compileTrustedProxies, type TrustedProxies } from '@/server/http/client-address';
import { TRACKING_MACROS } from '@/domain/measurement';
import { currentHitRecorder } from '@/server/services/tracking/hit-recorder';
import { hostTimestampOf, macroValue, sourceOf } from '@/server/services/tracking/hit-rules';

/*
 * GET or HEAD /t/{token}[.gif]?episode=…&ts=…&rid=… — what a host's ad server calls when it serves an
 * accepted offer's ad (docs/measurement.md). No key, no JSON: 204, or a 1×1 GIF for `.gif`, sent
 * only once the hit is committed (group commit, server/services/tracking/hit-recorder.ts); 503 with
 * Retry-After when it could not be (the buffer is full, or the write failed). A token that is no
 * offer's is answered exactly alike and nothing of it is recorded. Not logged per request, and the
 * client's address never leaves memory: it is hashed with the day's salt when its batch is written.
 */

export const TRACKING_PREFIX = '/t/';

/** The smallest transparent GIF: 1×1, one colour, 43 bytes. */
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

/** Never cached anywhere: a cached answer is a call that does not reach us. */
const COMMON = { 'Cache-Control': 'no-store, no-cache, must-revalidate, private', 'X-Content-Type-Options': 'nosniff' } as const;
const NO_CONTENT = { ...COMMON };
const GIF = { ...COMMON, 'Content-Type': 'image/gif', 'Content-Length': String(PIXEL.length) };
const UNAVAILABLE = { ...COMMON, 'Retry-After': '1', 'Content-Length': '0' };

/** The longest user agent kept; longer ones are cut (a few real ones pass 500 characters). */
const USER_AGENT_MAX = 512;

let trust: { setting: string | undefined; compiled: TrustedProxies } | undefined;
function trustedProxies(): TrustedProxies {
  const setting = config().TRUSTED_PROXIES;
  if (!trust || trust.setting !== setting) trust = { setting, compiled: compileTrustedProxies(setting) };
  return trust.compiled;
}

export function isTrackingPath(url: string): boolean {
  return url.startsWith(TRACKING_PREFIX);
}

export function serveTrackingHit(req: IncomingMessage, res: ServerResponse): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { ...COMMON, Allow: 'GET, HEAD', 'Content-Length': '0' }).end();
    return;
  }
  const url = req.url!;
  const queryAt = url.indexOf('?');
  let token = url.slice(TRACKING_PREFIX.length, queryAt === -1 ? undefined : queryAt);
  const gif = token.endsWith('.gif');
  if (gif) token = token.slice(0, -4);
  const query = new URLSearchParams(queryAt === -1 ? '' : url.slice(queryAt + 1));
  const recorder = currentHitRecorder();
  const userAgent = req.headers['user-agent'] ?? '';
  const kept = recorder?.record({
    token,
    receivedAt: Date.now(),
    source: sourceOf(clientAddressOf(req, trustedProxies())),
    userAgent: userAgent.slice(0, USER_AGENT_MAX),
    episode: macroValue(query.get('episode'), TRACKING_MACROS.episode.maxLength),
    hostTimestamp: hostTimestampOf(macroValue(query.get('ts'), TRACKING_MACROS.ts.maxLength)),
    requestId: macroValue(query.get('rid'), TRACKING_MACROS.rid.maxLength),
  });
  if (!kept) {
    res.writeHead(503, UNAVAILABLE).end();
    return;
  }
  void kept.then((ok) => {
    if (res.destroyed) return;
    if (!ok) res.writeHead(503, UNAVAILABLE).end();
    else if (gif) res.writeHead(200, GIF).end(req.method === 'HEAD' ? undefined : PIXEL);
    else res.writeHead(204, NO_CONTENT).end();
  });
}
