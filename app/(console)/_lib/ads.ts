'use client';

import { useQuery } from '@tanstack/react-query';
import { useTRPC } from './trpc';
import { readApiKey, REVOKED_NOTICE, signOut } from './session';

/*
 * Helpers of the advertising pages (advertisers, campaigns, podcasts, offers,
 * creatives): names for ids, money and dates, and the
 * authorized binary fetches (audio) that tRPC cannot carry.
 */

/** id → name of the network's advertisers, campaigns and podcasts (the first 200 of each), for tables and pickers. */
export function useAdvertisers(networkId: string) {
  const trpc = useTRPC();
  return useQuery(trpc.advertisers.list.queryOptions({ networkId, limit: 200 }));
}
export function useCampaigns(networkId: string) {
  const trpc = useTRPC();
  return useQuery(trpc.campaigns.list.queryOptions({ networkId, limit: 200 }));
}
export function usePodcasts(networkId: string) {
  const trpc = useTRPC();
  return useQuery(trpc.podcasts.list.queryOptions({ networkId, limit: 200 }));
}

export function namesById(items: { id: string; name: string }[] | undefined): Map<string, string> {
  return new Map((items ?? []).map((item) => [item.id, item.name]));
}

/** 250000 + USD → "$2,500.00"; null → "—". */
export function formatMoney(cents: number | null | undefined, currency: string | null | undefined): string {
  if (cents === null || cents === undefined || Number.isNaN(cents)) return '—';
  if (!currency || !/^[A-Z]{3}$/.test(currency)) return `${(cents / 100).toFixed(2)}`;
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(cents / 100);
  } catch {
    return `${(cents / 100).toFixed(2)} ${currency}`;
  }
}

export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  const seconds = Math.round(ms / 100) / 10;
  return seconds < 60 ? `${seconds.toFixed(1)} s` : `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
}

/** A `datetime-local` value (local time, no zone) as the API's ISO 8601 instant; blank → undefined. */
export function localToIso(value: unknown): unknown {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) {
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? value : date.toISOString();
  }
  return value;
}

/** An ISO instant as a `datetime-local` value in local time. */
export function isoToLocal(value: string | null | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The REST path of a creative's audio (same origin; the API's audio_url may name another host). */
export function creativeAudioPath(networkId: string, creativeId: string): string {
  return `/v1/networks/${encodeURIComponent(networkId)}/creatives/${encodeURIComponent(creativeId)}/audio`;
}

export function campaignPreviewPath(networkId: string, campaignId: string): string {
  return `/v1/networks/${encodeURIComponent(networkId)}/campaigns/${encodeURIComponent(campaignId)}/preview`;
}

/** An HTTP failure of an authorized binary fetch, with the API's problem detail. */
export class AudioFetchError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(detail);
    this.name = 'AudioFetchError';
  }
}

/**
 * Fetch binary content from /v1 with the signed-in key in the Authorization
 * header (never in a URL), e.g. a creative's audio or a voice preview.
 */
export async function fetchAuthorizedBlob(path: string, init?: { method?: string; body?: unknown; signal?: AbortSignal }): Promise<Blob> {
  const key = readApiKey();
  const headers: Record<string, string> = key ? { Authorization: `Bearer ${key}` } : {};
  if (init?.body !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, {
      method: init?.method ?? 'GET',
      headers,
      body: init?.body === undefined ? undefined : JSON.stringify(init.body),
      signal: init?.signal,
      cache: 'no-store',
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new AudioFetchError(0, 'The console could not reach the API. Check your connection and retry.');
  }
  if (!response.ok) {
    if (response.status === 401) signOut(REVOKED_NOTICE);
    let detail = response.statusText || 'The request failed.';
    try {
      const problem = (await response.json()) as { detail?: unknown };
      if (typeof problem.detail === 'string') detail = problem.detail;
    } catch {
      // not a problem document
    }
    throw new AudioFetchError(response.status, detail);
  }
  return response.blob();
}

/** A sentence for a failed audio fetch (502: the voice service is down). */
export function audioErrorSentence(error: unknown, action = 'load the audio'): string {
  if (error instanceof AudioFetchError) {
    if (error.status === 502 || error.status === 503)
      return `Could not ${action}: the voice service is unavailable right now. Try again in a minute. (${error.detail})`;
    if (error.status === 401) return `Could not ${action}: your key was revoked or expired — sign in again.`;
    return `Could not ${action}: ${error.detail}`;
  }
  return `Could not ${action}: ${error instanceof Error ? error.message : 'something went wrong.'}`;
}
