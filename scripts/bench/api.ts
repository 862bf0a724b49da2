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
