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
