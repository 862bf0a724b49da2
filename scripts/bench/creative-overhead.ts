/**
 * Creative overhead benchmark (part of `npm run bench`, see run.ts).
 *
 * Target: accept → creative.ready time minus the voice provider's own synthesis time < 100 ms.
 *
 * The service runs with SYNTH_PROVIDER=http against a fake vendor started here (a node:http
 * server answering POST /v1/text-to-speech/:voice with a small fixed WAV after a fixed delay and
 * recording, on its side, how long each request took). For each offer we time:
 *  - server side: the creative's `ready_at` minus the offer's `decided_at` (both the database's
 *    `now()`, i.e. one clock) minus the vendor's time for that creative's request = our overhead;
 *  - client side: from sending POST …/accept until GET …/creatives/{id} first says
 *    `pending_approval` (synthesized: when `creative.ready` fires; polled every POLL_MS), minus the
 *    vendor time — an upper bound that adds the accept round trip and up to one poll interval.
 * Runs: sequentially (one offer at a time) and at a modest concurrency. The podcast's host has
 * granted their voice for every campaign first, so each creative starts generating on accept.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { api, grantVoiceConsent, type Api } from '@/scripts/bench/api';
import { log, verdict } from '@/scripts/bench/format';
import { listenOnLoopback } from '@/scripts/bench/services';
import { finiteSorted, percentile } from '@/scripts/bench/stats';

export const OVERHEAD_TARGET_MS = 100;
export const POLL_MS = 10;

// ---------------------------------------------------------------- fake vendor

export interface FakeVendor {
  url: string;
  delayMs: number;
  /** Vendor-side duration (request received → response finished) per requested text. */
  timings: Map<string, number>;
  requests: number;
  close(): Promise<void>;
}

/** A small valid WAV: 16-bit mono 8 kHz PCM, 0.25 s of a 440 Hz tone (silence would fail mastering). */
function toneWav(): Buffer {
  const sampleRate = 8000;
  const dataLength = sampleRate * 2 * 0.25;
  const buf = Buffer.alloc(44 + dataLength);
  buf.write('RIFF', 0, 'ascii');
  buf.writeUInt32LE(36 + dataLength, 4);
  buf.write('WAVE', 8, 'ascii');
  buf.write('fmt ', 12, 'ascii');
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(1, 20); // PCM
  buf.writeUInt16LE(1, 22); // mono
  buf.writeUInt32LE(sampleRate, 24);
  buf.writeUInt32LE(sampleRate * 2, 28); // byte rate
  buf.writeUInt16LE(2, 32); // block align
  buf.writeUInt16LE(16, 34); // bits per sample
  buf.write('data', 36, 'ascii');
  buf.writeUInt32LE(dataLength, 40);
  for (let i = 0; i < dataLength / 2; i++) buf.writeInt16LE(Math.round(8_000 * Math.sin((2 * Math.PI * 440 * i) / sampleRate)), 44 + i * 2);
  return buf;
}

export async function startFakeVendor(delayMs: number): Promise<FakeVendor> {
  const wav = toneWav();
  const timings = new Map<string, number>();
  const state = { requests: 0 };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || !/^\/v1\/text-to-speech\/[^/]+$/.test(req.url?.split('?')[0] ?? '')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"not found"}');
        return;
      }
      state.requests++;
      let text = '';
      try {
        text = String((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { text?: unknown }).text ?? '');
      } catch {
        // keep ''
      }
      setTimeout(() => {
        res.once('finish', () => timings.set(text, (timings.get(text) ?? 0) + (performance.now() - started)));
        res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': String(wav.length) }).end(wav);
      }, delayMs);
    });
  });
  const { url, close } = await listenOnLoopback(server);
  return {
    url,
    delayMs,
    timings,
    get requests() {
      return state.requests;
    },
    close,
  };
}

// ---------------------------------------------------------------- offers to accept

interface PreparedOffer {
  offerId: string;
  script: string;
}

/** One network, advertiser and opted-in podcast whose host granted their voice; one campaign (with a unique script) and offer per sample. */
export async function prepareOffers(a: Api, count: number, label: string): Promise<{ networkId: string; offers: PreparedOffer[] }> {
  const network = await api<{ id: string }>(a, 'POST', '/networks', { name: `Bench creatives ${label}` });
  const n = network.id;
  const adv = await api<{ id: string }>(a, 'POST', `/networks/${n}/advertisers`, { name: 'Bench advertiser' });
  const pod = await api<{ id: string }>(a, 'POST', `/networks/${n}/podcasts`, { name: 'Bench podcast', host_name: 'Sam' });
  await api(a, 'POST', `/networks/${n}/podcasts/${pod.id}/opt-in`);
  await grantVoiceConsent(a, n, pod.id);
  const offers: PreparedOffer[] = [];
  for (let i = 0; i < count; i++) {
    const script = `Bench ${label} ${i + 1}: Acme makes mornings better.`;
    const cmp = await api<{ id: string }>(a, 'POST', `/networks/${n}/campaigns`, {
      name: `Bench ${label} ${i + 1}`,
      advertiser_id: adv.id,
      script,
      status: 'active',
    });
    const off = await api<{ id: string }>(a, 'POST', `/networks/${n}/offers`, { campaign_id: cmp.id, podcast_id: pod.id });
    offers.push({ offerId: off.id, script });
  }
  return { networkId: n, offers };
}

// ---------------------------------------------------------------- measurement

export interface CreativeSample {
  /** Client: send accept → first GET creative saying pending_approval. */
  clientMs: number;
  /** Server: ready_at − decided_at (database clock, ms resolution). */
  serverMs: number;
  vendorMs: number;
  status: string;
}

export interface CreativeRun {
  label: string;
  concurrency: number;
  samples: CreativeSample[];
  wallMs: number;
}

async function measureOne(a: Api, networkId: string, offer: PreparedOffer, vendor: FakeVendor, timeoutMs: number): Promise<CreativeSample> {
  const t0 = performance.now();
  const accepted = await api<{ creative_id: string | null; decided_at: string | null }>(
    a,
    'POST',
    `/networks/${networkId}/offers/${offer.offerId}/accept`,
  );
  if (!accepted.creative_id || !accepted.decided_at) throw new Error(`accept of ${offer.offerId} gave no creative_id/decided_at`);
  const deadline = t0 + timeoutMs;
  for (;;) {
    const c = await api<{ status: string; ready_at: string | null }>(a, 'GET', `/networks/${networkId}/creatives/${accepted.creative_id}`);
    const now = performance.now();
    if (c.status !== 'generating') {
      const serverMs = c.ready_at ? Date.parse(c.ready_at) - Date.parse(accepted.decided_at) : Number.NaN;
      // The vendor's 'finish' fires as the last byte is handed to the socket, before the service
      // can possibly have stored the audio; still, give the event loop one turn.
      await sleep(0);
      return { clientMs: now - t0, serverMs, vendorMs: vendor.timings.get(offer.script) ?? Number.NaN, status: c.status };
    }
    if (now > deadline) throw new Error(`creative ${accepted.creative_id} still generating after ${timeoutMs / 1000} s`);
    await sleep(POLL_MS);
  }
}

export async function runCreatives(
  a: Api,
  vendor: FakeVendor,
  prepared: { networkId: string; offers: PreparedOffer[] },
  concurrency: number,
  label: string,
  timeoutMs = 30_000,
): Promise<CreativeRun> {
  const samples: CreativeSample[] = new Array(prepared.offers.length);
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < prepared.offers.length) {
      const i = next++;
      samples[i] = await measureOne(a, prepared.networkId, prepared.offers[i]!, vendor, timeoutMs);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { label, concurrency, samples, wallMs: performance.now() - started };
}

/** Accepts before the measured runs, not counted. */
export const CREATIVE_WARMUP = 3;

/**
 * The whole measurement on a service that uses `vendor`: CREATIVE_WARMUP accepts, then `count`
 * offers accepted one at a time, then `count` more at `concurrency`; a summary per measured run.
 */
export async function measureCreativeOverhead(a: Api, vendor: FakeVendor, count: number, concurrency: number): Promise<CreativeSummary[]> {
  const plan = [
    { label: 'warm-up', concurrency: 1, count: CREATIVE_WARMUP },
    { label: 'sequential', concurrency: 1, count },
    { label: 'concurrent', concurrency, count },
  ];
  const prepared = [];
  for (const p of plan) prepared.push(await prepareOffers(a, p.count, p.label));
  log(`prepared ${plan.reduce((n, p) => n + p.count, 0)} offers`);
  const summaries: CreativeSummary[] = [];
  for (const [i, p] of plan.entries()) {
    await sleep(1_000);
    const run = await runCreatives(a, vendor, prepared[i]!, p.concurrency, p.label);
    if (p.label === 'warm-up') continue;
    const summary = summarizeCreatives(run);
    summaries.push(summary);
    log(creativeLogLine(summary));
  }
  return summaries;
}

// ---------------------------------------------------------------- summary + report

export interface CreativeSummary {
  label: string;
  concurrency: number;
  n: number;
  notReady: number;
  wallMs: number;
  vendor: Stats;
  serverTotal: Stats;
  serverOverhead: Stats;
  clientTotal: Stats;
  clientOverhead: Stats;
  /** Headline: server-side overhead p95 < target. */
  met: boolean;
}

interface Stats {
  p50: number;
  p95: number;
  max: number;
}

const stats = (values: number[]): Stats => {
  const sorted = finiteSorted(values);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: percentile(sorted, 100) };
};

export function summarizeCreatives(run: CreativeRun): CreativeSummary {
  const ok = run.samples.filter((s) => s.status === 'pending_approval');
  const serverOverhead = stats(ok.map((s) => s.serverMs - s.vendorMs));
  return {
    label: run.label,
    concurrency: run.concurrency,
    n: run.samples.length,
    notReady: run.samples.length - ok.length,
    wallMs: run.wallMs,
    vendor: stats(ok.map((s) => s.vendorMs)),
    serverTotal: stats(ok.map((s) => s.serverMs)),
    serverOverhead,
    clientTotal: stats(ok.map((s) => s.clientMs)),
    clientOverhead: stats(ok.map((s) => s.clientMs - s.vendorMs)),
    met: ok.length === run.samples.length && serverOverhead.p95 < OVERHEAD_TARGET_MS,
  };
}

const f = (n: number) => (Number.isFinite(n) ? (Math.abs(n) < 10 ? n.toFixed(1) : n.toFixed(0)) : 'n/a');
const triple = (s: Stats) => `${f(s.p50)} / ${f(s.p95)} / ${f(s.max)}`;

export function creativeLogLine(s: CreativeSummary): string {
  return (
    `creatives ${s.label} (concurrency ${s.concurrency}, n=${s.n}): accept→ready server p50/p95/max ${triple(s.serverTotal)} ms, ` +
    `overhead ${triple(s.serverOverhead)} ms (client-observed ${triple(s.clientOverhead)} ms), vendor ${triple(s.vendor)} ms — ` +
    `${s.met ? 'met' : 'MISSED'}` +
    (s.notReady ? `, ${s.notReady} not synthesized` : '')
  );
}

export function renderCreativeSection(
  summaries: CreativeSummary[],
  info: { vendorDelayMs: number; warmup: number; error?: string; workerConcurrency: string },
): string[] {
  const lines: string[] = ['## Creative generation overhead (scripts/bench/creative-overhead.ts)', ''];
  if (info.error || summaries.length === 0) {
    lines.push(`Not measured: ${info.error ?? 'skipped'}.`, '');
    return lines;
  }
  const allMet = summaries.every((s) => s.met);
  lines.push(
    `Target: accept → \`creative.ready\` minus the voice provider's own synthesis time < ${OVERHEAD_TARGET_MS} ms (judged on p95). **Verdict: ${allMet ? 'met' : 'MISSED'}.**`,
    '',
    '| run | offers | accept→ready p50 / p95 / max ms | vendor time p50 / p95 / max ms | **overhead** p50 / p95 / max ms | overhead, client-observed p50 / p95 / max ms | < 100 ms (p95) |',
    '|---|---|---|---|---|---|---|',
    ...summaries.map(
      (s) =>
        `| ${s.label}, concurrency ${s.concurrency} | ${s.n}${s.notReady ? ` (${s.notReady} not synthesized)` : ''} | ${triple(s.serverTotal)} | ${triple(s.vendor)} | **${triple(s.serverOverhead)}** | ${triple(s.clientOverhead)} | ${verdict(s.met)} |`,
    ),
    '',
    `- **Setup**: a separate start of the service (same command and settings as above, same database) with \`SYNTH_PROVIDER=http\` and \`SYNTH_BASE_URL\` pointing at a fake vendor in the benchmark process: a \`node:http\` server that answers \`POST /v1/text-to-speech/:voice\` with a fixed ${Math.round(toneWav().length / 1024)} KiB WAV after a fixed ${info.vendorDelayMs} ms and records its own time per request (request received → response finished). Worker concurrency ${info.workerConcurrency}. Every offer has its own campaign (unique script), all for one opted-in podcast; ${info.warmup} accepts before the measured runs are not counted.`,
    `- **accept→ready** is the creative's \`ready_at\` minus the offer's \`decided_at\`, both from the API and both the database's \`now()\` (one clock, millisecond resolution; \`now()\` is the start of each transaction, so the commit of the final transaction — a few ms — is only in the client-observed figure). **overhead** = accept→ready − the vendor's time for that creative's request. **client-observed** is from sending \`POST …/accept\` until \`GET …/creatives/{id}\` (polled every ${POLL_MS} ms) first says \`pending_approval\`, minus the vendor time: an upper bound that adds the accept round trip and up to one poll interval, and the polling itself loads the service.`,
    `- **What the overhead is**: the accept transaction finds the host's voice consent covering the campaign and commits the offer, the creative (\`generating\`) and the graphile-worker job; the worker hears about it through LISTEN/NOTIFY (not its 2 s poll), fetches and locks the job, loads the creative (\`loadGeneratingCreative\`) and records the attempt (\`noteAttempt\`, one UPDATE), calls the provider (HTTP to the vendor: connection, request, reading the body, parsing the WAV header — only the part on the vendor's side is subtracted), masters the audio (\`masterAudio\`, server/synth/master.ts: ffmpeg measures the input's loudness, renders the MP3 and the WAV, and measures both as decoded, rendering again while either is more than 0.3 LU off −16 LUFS; each of these steps is an ffmpeg process, and at most one creative per core is mastered at a time), then in one transaction checks the consent again (share-locked), stores the audio, sets the creative \`pending_approval\`, opens its review (the host's link, its email queued) and writes the \`creative.ready\` event, and finally completes the job. At concurrency ${summaries.at(-1)?.concurrency ?? ''} these steps of several jobs, plus the benchmark's polling, share the same process and cores.`,
    '',
  );
  return lines;
}
