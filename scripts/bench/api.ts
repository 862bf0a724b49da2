/** Calls to the service's REST API (`/v1`) from the benchmark, with a bearer token. */

/** One request; the body parsed as JSON when it is JSON, else the text. Never throws on a status. */
export async function call(url: string, token: string, init: RequestInit = {}): Promise<{ status: number; body: unknown }> {
  const res = await fetch(url, { ...init, headers: { authorization: `Bearer ${token}`, ...init.headers } });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // keep text
  }
  return { status: res.status, body };
}

/** A running service and the key the benchmark uses on it. */
export interface Api {
  baseUrl: string;
  token: string;
}

/** `method` `/v1{path}` with a JSON body (if any); the parsed answer, or an error naming the status unless it is 2xx. */
export async function api<T>(a: Api, method: string, path: string, body?: unknown): Promise<T> {
  const { status, body: answer } = await call(`${a.baseUrl}/v1${path}`, a.token, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  if (status < 200 || status >= 300) throw new Error(`${method} ${path} answered ${status}: ${JSON.stringify(answer).slice(0, 300)}`);
  return answer as T;
}

/**
 * The podcast host's voice consent for every campaign, asked and granted as it happens for real
 * (docs/voice-consent.md): the network asks, a test-mode network's answer carries the link's token
 * once, and the host grants through the link on the statement it reads. Without one, an accepted
 * offer's creative awaits consent and is never synthesized.
 */
export async function grantVoiceConsent(a: Api, networkId: string, podcastId: string): Promise<string> {
  const asked = await api<{ id: string; token?: string }>(a, 'POST', `/networks/${networkId}/podcasts/${podcastId}/voice-consents`, {
    host_name: 'Sam',
    host_email: `host-${podcastId.toLowerCase()}@example.test`,
    scope: 'all_campaigns',
  });
  if (!asked.token) throw new Error(`no link token in the answer for ${networkId}: the benchmark's networks must be test-mode networks`);
  const host: Api = { baseUrl: a.baseUrl, token: asked.token };
  const link = await api<{ statement: { version: number } }>(host, 'GET', '/voice-consents/current');
  await api(host, 'POST', '/voice-consents/current/grant', { statement_version: link.statement.version });
  return asked.id;
}
