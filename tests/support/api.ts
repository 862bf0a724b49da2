import { randomUUID } from 'node:crypto';
import { expect, inject } from 'vitest';

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** A small HTTP client for /v1 that returns status, headers and the parsed body. */
export async function api<T = Record<string, unknown>>(
  method: string,
  path: string,
  options: { token?: string | null; body?: unknown; rawBody?: string; headers?: Record<string, string>; baseUrl?: string } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  const token = options.token === undefined ? inject('superToken') : options.token;
  if (token) headers.authorization = `Bearer ${token}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(`${options.baseUrl ?? inject('baseUrl')}/v1${path}`, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

/**
 * An advertiser, an active campaign with `script` and an opted-in podcast in network `n`, made
 * through /v1 as an integration makes them, with `call` (an `api` bound to a service and a token).
 */
export async function adInventoryOverHttp(
  call: <T>(method: string, path: string, body?: unknown) => Promise<ApiResponse<T>>,
  n: string,
  script = 'Sleep better with Acme.',
) {
  const advertiser = await call<{ id: string }>('POST', `/networks/${n}/advertisers`, { name: 'Acme' });
  const campaign = await call<{ id: string }>('POST', `/networks/${n}/campaigns`, {
    name: 'Spring',
    advertiser_id: advertiser.body.id,
    script,
    status: 'active',
  });
  const podcast = await call<{ id: string }>('POST', `/networks/${n}/podcasts`, { name: 'Pod', host_name: 'Sam' });
  expect((await call('POST', `/networks/${n}/podcasts/${podcast.body.id}/opt-in`)).status).toBe(200);
  return { advertiserId: advertiser.body.id, campaignId: campaign.body.id, podcastId: podcast.body.id };
}

/**
 * The podcast host's voice consent, asked and granted over HTTP as it happens for real
 * (docs/voice-consent.md): the network asks for every campaign (`all_campaigns`) with `call`, and
 * the host reads the statement through the link and grants it on that version. The link's token is
 * in the request's answer under APP_ENV=test (once); a live deployment answers without it, so
 * `tokenFromMail` reads it from the mail sent to the host. From then on the podcast's creatives are
 * synthesized (server/services/creatives/consent-gate.ts), those awaiting a consent included.
 * `baseUrl` is the service the host's link is of (the shared test server unless given).
 */
export async function grantVoiceConsentOverHttp(
  call: <T>(method: string, path: string, body?: unknown) => Promise<ApiResponse<T>>,
  n: string,
  podcastId: string,
  options: { baseUrl?: string; hostName?: string; tokenFromMail?: (hostEmail: string) => Promise<string> } = {},
): Promise<{ consentId: string }> {
  const hostEmail = `host-${randomUUID()}@example.test`;
  const asked = await call<{ id: string; token?: string }>('POST', `/networks/${n}/podcasts/${podcastId}/voice-consents`, {
    host_name: options.hostName ?? 'Sam',
    host_email: hostEmail,
    scope: 'all_campaigns',
  });
  expect(asked.status, asked.text).toBe(201);
  const token = asked.body.token ?? (await options.tokenFromMail?.(hostEmail));
  expect(token, 'the link token: in the answer under APP_ENV=test, else from the mail (tokenFromMail)').toMatch(/^vcl_/);
  const asHost = <T>(method: string, path: string, body?: unknown) => api<T>(method, path, { token: token!, baseUrl: options.baseUrl, body });
  const link = await asHost<{ statement: { version: number } }>('GET', '/voice-consents/current');
  expect(link.status, link.text).toBe(200);
  const granted = await asHost<{ status: string }>('POST', '/voice-consents/current/grant', { statement_version: link.body.statement.version });
  expect(granted.status, granted.text).toBe(200);
  expect(granted.body.status).toBe('granted');
  return { consentId: asked.body.id };
}

/** Assert-friendly view of an error envelope: exactly the spec's four keys (plus optional errors). */
export function envelopeKeys(body: unknown): string[] {
  return Object.keys(body as object).sort();
}

/**
 * A refusal in the error envelope: `status`, served as application/problem+json, with exactly the
 * envelope's keys (and `errors` for a field error), the same status inside, the type ending in
 * `/errors/{slug}`, and a detail that says something.
 */
export function expectProblem(res: { status: number; headers: Headers; body: unknown }, status: number, slug: string): Problem {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  const body = res.body as Problem;
  expect(envelopeKeys(body).filter((k) => k !== 'errors')).toEqual(['detail', 'status', 'title', 'type']);
  expect(body.status).toBe(status);
  expect(body.type).toMatch(new RegExp(`/errors/${slug}$`));
  expect(body.detail.length).toBeGreaterThan(0);
  return body;
}

/** The list envelope. */
export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

/** The error envelope. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  errors?: Array<{ path: string; message: string }>;
}
