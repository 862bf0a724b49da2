/**
 * What every versioned network resource promises over /v1 (advertisers, campaigns, podcasts…),
 * as assertions a resource's HTTP test states once instead of copying them.
 */
import { expect } from 'vitest';
import { api, type Problem } from '@/tests/support/api';

/**
 * POST a new resource to `collection` with the network's administrator key, then read it back
 * with its read_only key: 201 with ETag "1" and exactly the new resource — an `idPrefix` id, the
 * network, `fields`, version 1 and its times — then the same body and ETag from GET.
 */
export async function expectCreatedThenRead<T extends { id: string }>({
  network,
  collection,
  idPrefix,
  body,
  fields,
}: {
  network: { id: string; admin: string; reader: string };
  collection: string;
  idPrefix: string;
  body: Record<string, unknown>;
  fields: Record<string, unknown>;
}): Promise<T> {
  const res = await api<T>('POST', collection, { token: network.admin, body });
  expect(res.status, res.text).toBe(201);
  expect(res.headers.get('etag')).toBe('"1"');
  expect(res.body).toEqual({
    id: expect.stringMatching(new RegExp(`^${idPrefix}_[0-9a-z]{26}$`)),
    network_id: network.id,
    ...fields,
    version: 1,
    created_at: expect.any(String),
    updated_at: expect.any(String),
  });
  const got = await api<T>('GET', `${collection}/${res.body.id}`, { token: network.reader });
  expect(got.status).toBe(200);
  expect(got.headers.get('etag')).toBe('"1"');
  expect(got.body).toEqual(res.body);
  return res.body;
}

/**
 * Each case, its fields over a valid `base` body, is refused with 400 whose first field error
 * names `field`: the client is told which field to fix.
 */
export async function expectFieldErrors({
  collection,
  token,
  base = {},
  cases,
}: {
  collection: string;
  token: string;
  base?: Record<string, unknown>;
  cases: Array<[fields: Record<string, unknown>, field: string]>;
}): Promise<void> {
  for (const [fields, field] of cases) {
    const res = await api<Problem>('POST', collection, { token, body: { ...base, ...fields } });
    expect(res.status, JSON.stringify(fields)).toBe(400);
    expect(res.body.errors?.[0]?.path, JSON.stringify(fields)).toBe(field);
  }
}
