'use client';

import { useQuery } from '@tanstack/react-query';
import type { FlightPlacement, PricingModel } from '@/domain/statuses';
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

/** 250000 + USD → "$2,500.00"; null → "—". `whole`: a whole amount without its minor digits ("$2,500"). */
export function formatMoney(cents: number | null | undefined, currency: string | null | undefined, { whole = false } = {}): string {
  if (cents === null || cents === undefined || Number.isNaN(cents)) return '—';
  const digits = whole && cents % 100 === 0 ? 0 : 2;
  if (!currency || !/^[A-Z]{3}$/.test(currency)) return `${(cents / 100).toFixed(digits)}`;
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency, minimumFractionDigits: digits }).format(cents / 100);
  } catch {
    return `${(cents / 100).toFixed(digits)} ${currency}`;
  }
}

/** Where in the episode a flight's ad runs, for people. */
export const PLACEMENT_LABELS: Record<FlightPlacement, string> = { pre: 'Pre-roll', mid: 'Mid-roll', post: 'Post-roll' };

/** What a pricing model is called next to its amount ("$25.00 CPM", "$5,000 flat"). */
export const PRICING_MODEL_LABELS: Record<PricingModel, string> = { cpm: 'CPM', flat: 'Flat fee' };

/**
 * A flight's (or an offer's terms') price: "$25.00 CPM · 200,000 impressions", "$5,000 flat",
 * "$5,000 flat · 50,000 impressions".
 */
export function formatPricing(pricing: Pricing, impressionGoal: number | null | undefined): string {
  return pricingParts(pricing, impressionGoal).join(' · ');
}

/** The parts `formatPricing` joins, for a cell that wraps between them: ["$25.00 CPM", "200,000 impressions"]. */
export function pricingParts(pricing: Pricing, impressionGoal: number | null | undefined): string[] {
  const price =
    pricing.model === 'cpm'
      ? `${formatMoney(pricing.amount_cents, pricing.currency)} CPM`
      : `${formatMoney(pricing.amount_cents, pricing.currency, { whole: true })} flat`;
  return impressionGoal ? [price, formatImpressions(impressionGoal)] : [price];
}

interface Pricing {
  model: PricingModel;
  amount_cents: number;
  currency: string;
}

/** What a flight, or an offer made on one, asks for: "Pre-roll · max 60 s · $25.00 CPM · 200,000 impressions". */
export function formatTerms(terms: {
  placement: FlightPlacement;
  max_duration_seconds: number;
  pricing: Pricing;
  impression_goal: number | null;
}): string {
  return [PLACEMENT_LABELS[terms.placement], `max ${terms.max_duration_seconds} s`, formatPricing(terms.pricing, terms.impression_goal)].join(' · ');
}

/** An offer's price: its terms' pricing when it was made on a flight, else its price. */
export function offerPrice(offer: {
  price_cents: number | null;
  currency: string | null;
  terms: { pricing: Pricing; impression_goal: number | null } | null;
}): string {
  return offer.terms ? formatPricing(offer.terms.pricing, offer.terms.impression_goal) : formatMoney(offer.price_cents, offer.currency);
}

/** 200000 → "200,000 impressions". */
export function formatImpressions(count: number): string {
  return `${count.toLocaleString()} ${count === 1 ? 'impression' : 'impressions'}`;
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
