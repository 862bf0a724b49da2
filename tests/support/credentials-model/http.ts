import { randomUUID } from 'node:crypto';
import type { Sql } from 'postgres';
import { api, type ApiResponse } from '@/tests/support/api';
import type { Mailbox } from './service';

/** What the credentials model sends and counts: one server, one bootstrap super_user token. */
export interface Real {
  baseUrl: string;
  /** The operator's bootstrap key: builds each run's world and reads network key lists; never a command's target. */
  bootstrapToken: string;
  /** The run's database, for the one thing the API cannot do: seed a person's multi-network key. */
  database: Sql;
  /** The service's outgoing mail, where invitation tokens and sign-in links are read (live mode answers without them). */
  mail: Mailbox;
  /** This run's operations as they were resolved, for the failure message. */
  trace: string[];
  /** The same steps as operations and picks (`ScriptedStep`s, commands.ts): a failure prints them to be pinned. */
  script?: Array<{ op: string; params: unknown }>;
  /** Revoked keys already seen answering 401: checked again only every few steps. */
  seenRevoked: Set<string>;
  /** The service's origin (PUBLIC_URL), for passkeys; read from its document on first use. */
  origin?: string;
  stats: Stats;
}

export interface Stats {
  runs: number;
  commands: number;
  checks: number;
  requests: number;
  /** Commands by name and outcome (`rotateOwnKey allowed`), to show what the runs exercised. */
  outcomes: Record<string, number>;
  /**
   * Milliseconds spent building worlds, performing commands, and checking after them; of the
   * commands', waiting for creatives to be synthesized and their review links mailed.
   */
  ms: { world: number; commands: number; checks: number; synthesis: number };
}

export function emptyStats(): Stats {
  return { runs: 0, commands: 0, checks: 0, requests: 0, outcomes: {}, ms: { world: 0, commands: 0, checks: 0, synthesis: 0 } };
}

/** Add one suite's figures to the total. */
export function addStats(total: Stats, more: Stats): void {
  total.runs += more.runs;
  total.commands += more.commands;
  total.checks += more.checks;
  total.requests += more.requests;
  for (const [name, n] of Object.entries(more.outcomes)) total.outcomes[name] = (total.outcomes[name] ?? 0) + n;
  for (const part of ['world', 'commands', 'checks', 'synthesis'] as const) total.ms[part] += more.ms[part];
}

export interface ScopeView {
  network_id: string;
  role: 'read_only' | 'administrator';
}

/** An API key as every key view shows it (token only when created). */
export interface KeyView {
  id: string;
  token?: string;
  /** Its mode: `sk_test_` or `sk_live_`. */
  environment: 'test' | 'live';
  super_user: boolean;
  scopes: ScopeView[];
  owner: { type: 'person' | 'service_account'; id: string };
  status: string;
  expires_at: string | null;
}

/** POST /v1/invitations/accept: the membership and the fresh key. */
export interface AcceptedView {
  member: { id: string; user: { id: string } };
  api_key: KeyView;
}

export interface MeView {
  key_id: string;
  super_user: boolean;
  scopes: ScopeView[];
}

export type Answer = ApiResponse<unknown>;

export interface Request {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  /** `Bearer …` value: an API key or an invitation token. */
  token: string;
  /** The exact JSON text of a POST/PATCH body. */
  body?: string;
  idempotencyKey?: string;
}

/** One request to /v1; every POST carries an Idempotency-Key so it can be replayed later. */
export async function send(real: Real, request: Request): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  if (request.idempotencyKey) headers['idempotency-key'] = request.idempotencyKey;
  real.stats.requests += 1;
  return api<unknown>(request.method, request.path, { token: request.token, rawBody: request.body, headers, baseUrl: real.baseUrl });
}

/** A POST with a fresh Idempotency-Key. */
export function post(path: string, token: string, body: unknown): Request {
  return { method: 'POST', path, token, body: JSON.stringify(body), idempotencyKey: randomUUID() };
}

/** Every page of a list (limit 200), or only the first with `firstPageOnly`. */
export async function listAll<T>(
  real: Real,
  path: string,
  token: string,
  firstPageOnly = false,
): Promise<{ status: number; items: T[]; text: string }> {
  const items: T[] = [];
  let cursor: string | null = null;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const page = await send(real, { method: 'GET', path: `${path}${sep}limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, token });
    if (page.status !== 200) return { status: page.status, items, text: page.text };
    const body = page.body as { items: T[]; next_cursor: string | null };
    items.push(...body.items);
    cursor = firstPageOnly ? null : body.next_cursor;
  } while (cursor);
  return { status: 200, items, text: '' };
}

/** Run `work` over `items`, at most `width` at a time. */
export async function inBatches<T>(items: T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += width) await Promise.all(items.slice(i, i + width).map(work));
}

/** A failed expectation, with enough context to read without the code. */
export class ModelViolation extends Error {
  override name = 'ModelViolation';
}

export function violation(message: string, answer?: Answer): ModelViolation {
  return new ModelViolation(answer ? `${message}\n  server answered ${answer.status}: ${answer.text.slice(0, 600)}` : message);
}
