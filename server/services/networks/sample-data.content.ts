import type { AdvertiserFields } from '@/server/services/advertisers/create-advertiser';
import type { PodcastFields } from '@/server/services/podcasts/create-podcast';
import type { INITIAL_CAMPAIGN_STATUSES } from '@/domain/campaign-transitions';

// What fillWithSampleData (./sample-data.ts) puts in a sandbox network. Every name is made up and
// every address is under the reserved `.example` domain, so no sample can reach a real company.

/** The one currency of the samples: budgets and offer prices are in its cents. */
export const SAMPLE_CURRENCY = 'USD';

/** How long the sample offers stay open, in days from today. */
export const SAMPLE_OFFER_DAYS = 14;

// Categories are ids of the IAB Ad Product Taxonomy (GET /v1/ad-categories).
export const SAMPLE_ADVERTISERS = {
  cloudhollow: {
    name: 'Cloudhollow Mattresses',
    website: 'https://cloudhollow.example',
    contactEmail: 'partners@cloudhollow.example',
    categories: ['1279', '1287'], // Bedroom Furniture and Accessories; Linens and Bedding
  },
  pantryPorch: {
    name: 'Pantry Porch Meal Kits',
    website: 'https://pantryporch.example',
    contactEmail: 'podcasts@pantryporch.example',
    categories: ['1201'], // Meal Kits
  },
  burrowlink: {
    name: 'Burrowlink VPN',
    website: 'https://burrowlink.example',
    contactEmail: 'sponsorships@burrowlink.example',
    categories: ['1086'], // Personal Computer Software
  },
} satisfies Record<string, AdvertiserFields>;

export interface SampleCampaign {
  advertiser: keyof typeof SAMPLE_ADVERTISERS;
  name: string;
  /** The host read: a script of 40–80 words with the promo code, as a host reads it aloud. */
  script: string;
  status: (typeof INITIAL_CAMPAIGN_STATUSES)[number];
  /** The flight, in whole days from today (UTC), so the sample is always upcoming. */
  startsInDays: number;
  runsForDays: number;
  budgetCents: number;
  /** Kept apart from competitors (a shared category) on a show in overlapping dates. */
  competitiveSeparation?: boolean;
}

export const SAMPLE_CAMPAIGNS = {
  springSleep: {
    advertiser: 'cloudhollow',
    name: 'Spring sleep trial',
    script:
      'This episode is brought to you by Cloudhollow. I used to wake up at three every morning; since switching to my Cloudhollow ' +
      'mattress, I sleep straight through. It is cooling foam on a springy coil base, it arrives at your door in a box, and you get a ' +
      'hundred nights to try it. Go to cloudhollow.example/sleep and use code REST for fifteen percent off.',
    status: 'active',
    startsInDays: 7,
    runsForDays: 42,
    budgetCents: 2_400_000,
  },
  holidayPillows: {
    advertiser: 'cloudhollow',
    name: 'Holiday guest pillow bundle',
    script:
      'Guests coming to stay? Cloudhollow has you covered. Their guest bundle pairs two adjustable pillows with a breathable cotton ' +
      'sheet set, so the spare room feels like a good hotel. Everything is machine washable and comes with a one-year warranty. ' +
      'Order at cloudhollow.example/guests and use code GUEST for twenty percent off the bundle.',
    status: 'draft',
    startsInDays: 60,
    runsForDays: 30,
    budgetCents: 950_000,
  },
  weeknightDinners: {
    advertiser: 'pantryPorch',
    name: 'Weeknight dinners',
    script:
      'Quick question: what is for dinner tonight? If you do not know, Pantry Porch does. Every week you pick from thirty recipes, ' +
      'and they deliver fresh, pre-portioned ingredients with step-by-step cards, so most meals are on the table in under half an ' +
      'hour. I have been cooking their lemon chicken orzo on repeat. Go to pantryporch.example/dinner and use code DINNER for half ' +
      'off your first box.',
    status: 'active',
    startsInDays: 3,
    runsForDays: 56,
    budgetCents: 1_800_000,
    competitiveSeparation: true,
  },
  travelSeason: {
    advertiser: 'burrowlink',
    name: 'Travel season',
    script:
      'Traveling this season? Airport and hotel Wi-Fi is convenient, but it is also wide open. Burrowlink VPN encrypts everything ' +
      'you do online with one tap, on your phone, laptop and tablet at once. It is fast enough to stream your shows from home while ' +
      'you are away, and it keeps no logs. Get three extra months free at burrowlink.example/travel with code JOURNEY.',
    status: 'active',
    startsInDays: 10,
    runsForDays: 35,
    budgetCents: 1_500_000,
  },
} satisfies Record<string, SampleCampaign>;

/**
 * A host's consent to ads in their synthesized voice (docs/voice-consent.md), as the host granted
 * it: for every campaign of the network, or for `advertisers` only; until revoked, or for `forDays`.
 */
export interface SampleConsent {
  hostEmail: string;
  advertisers?: Array<keyof typeof SAMPLE_ADVERTISERS>;
  forDays?: number;
}

export interface SamplePodcast extends PodcastFields {
  /** Most shows have opted in and can be offered campaigns; one has not yet, as in any real network. */
  optedIn: boolean;
  /**
   * Most hosts have granted their voice, so their creatives are made; one opted-in host has not
   * been asked yet, and the creative of their accepted offer awaits consent.
   */
  consent?: SampleConsent;
}

export const SAMPLE_PODCASTS = {
  slowKitchen: {
    name: 'The Slow Kitchen',
    hostName: 'Marisol Vega',
    voice: 'warm',
    rssUrl: 'https://feeds.example/slow-kitchen.xml',
    optedIn: true,
    consent: { hostEmail: 'marisol@slowkitchen.example' },
  },
  pocketPhysics: {
    name: 'Pocket Physics',
    hostName: 'Tomasz Okafor',
    voice: 'bright',
    rssUrl: 'https://feeds.example/pocket-physics.xml',
    optedIn: true,
    consent: { hostEmail: 'tomasz@pocketphysics.example', forDays: 365 },
  },
  longHaul: {
    name: 'Long Haul Stories',
    hostName: 'Dana Whitfield',
    voice: 'deep',
    rssUrl: 'https://feeds.example/long-haul-stories.xml',
    optedIn: true,
    consent: { hostEmail: 'dana@longhaulstories.example', advertisers: ['cloudhollow', 'burrowlink'] },
  },
  twoMinuteMoney: {
    name: 'Two Minute Money',
    hostName: 'June Park',
    voice: 'fast',
    rssUrl: 'https://feeds.example/two-minute-money.xml',
    optedIn: true,
    excludedCategories: ['1361'], // Gambling, and with it casinos, lotteries and sports betting
  },
  quietHours: {
    name: 'Quiet Hours',
    hostName: 'Elliot Brandt',
    voice: 'calm',
    rssUrl: 'https://feeds.example/quiet-hours.xml',
    optedIn: false,
  },
} satisfies Record<string, SamplePodcast>;

export interface SampleOffer {
  campaign: keyof typeof SAMPLE_CAMPAIGNS;
  /** An opted-in show: createOffer refuses the others. */
  podcast: keyof typeof SAMPLE_PODCASTS;
  /** A flat fee for the flight on this show. */
  priceCents: number;
  /** Left open when absent. */
  decision?: 'accept' | { reject: string };
}

export const SAMPLE_OFFERS: SampleOffer[] = [
  { campaign: 'springSleep', podcast: 'slowKitchen', priceCents: 45_000 },
  { campaign: 'springSleep', podcast: 'longHaul', priceCents: 60_000 },
  { campaign: 'weeknightDinners', podcast: 'slowKitchen', priceCents: 52_000, decision: 'accept' },
  {
    campaign: 'weeknightDinners',
    podcast: 'pocketPhysics',
    priceCents: 38_000,
    decision: { reject: 'We already carry another meal-kit sponsor on this show through the spring.' },
  },
  { campaign: 'weeknightDinners', podcast: 'twoMinuteMoney', priceCents: 30_000 },
  { campaign: 'travelSeason', podcast: 'longHaul', priceCents: 55_000 },
  { campaign: 'travelSeason', podcast: 'pocketPhysics', priceCents: 40_000 },
  // Accepted before its host was asked for consent: the creative waits for it.
  { campaign: 'travelSeason', podcast: 'twoMinuteMoney', priceCents: 28_000, decision: 'accept' },
];
