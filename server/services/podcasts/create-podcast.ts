import type { Tx } from '@/db/client';
import { newId } from '@/db/ids';
import { podcasts } from '@/db/schema';
import { checkedPodcastRules, type PodcastRuleFields } from '@/server/services/brand-safety/podcast-rules';
import type { PodcastRow } from './find-podcasts';
import { DEFAULT_VOICE, type VoicePreset } from './voices';

export interface PodcastFields extends PodcastRuleFields {
  name: string;
  hostName: string;
  voice?: VoicePreset | undefined;
  rssUrl?: string | null | undefined;
}

/** A new podcast starts `not_opted_in`: it receives no offers until it opts in. */
export async function createPodcast({ tx, networkId, fields }: { tx: Tx; networkId: string; fields: PodcastFields }): Promise<PodcastRow> {
  const rules = await checkedPodcastRules({ db: tx, networkId, rules: fields });
  const [row] = await tx
    .insert(podcasts)
    .values({
      id: newId('podcast'),
      networkId,
      name: fields.name,
      hostName: fields.hostName,
      voice: fields.voice ?? DEFAULT_VOICE,
      rssUrl: fields.rssUrl ?? null,
      ...rules,
    })
    .returning();
  return row!;
}
