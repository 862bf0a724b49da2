import { checkOutputs, outputCheckOfProcess } from '@/server/output-checks';
import { router } from '@/server/trpc';
import { adCategoriesRouter } from './ad-categories/router';
import { advertisersRouter } from './advertisers/router';
import { auditRouter } from './audit/router';
import { campaignsRouter } from './campaigns/router';
import { creativeReviewsRouter } from './creative-reviews/router';
import { creativesRouter } from './creatives/router';
import { emailsRouter } from './emails/router';
import { eventsRouter } from './events/router';
import { flightsRouter } from './flights/router';
import { invitationsRouter } from './invitations/router';
import { keysRouter } from './keys/router';
import { meRouter } from './me/router';
import { membersRouter } from './members/router';
import { networksRouter } from './networks/router';
import { offersRouter } from './offers/router';
import { offerDeliveryRouter } from './offer-delivery/router';
import { podcastsRouter } from './podcasts/router';
import { reportsRouter } from './reports/router';
import { searchRouter } from './search/router';
import { serviceAccountsRouter } from './service-accounts/router';
import { notificationsRouter } from './notifications/router';
import { passkeysRouter } from './passkeys/router';
import { signInRouter } from './sign-in/router';
import { voiceConsentsRouter } from './voice-consents/router';
import { webhooksRouter } from './webhooks/router';

/** The one set of procedures: served as REST under /v1 and to the console under /api/trpc. */
export const appRouter = router({
  me: meRouter,
  networks: networksRouter,
  events: eventsRouter,
  keys: keysRouter,
  members: membersRouter,
  invitations: invitationsRouter,
  serviceAccounts: serviceAccountsRouter,
  audit: auditRouter,
  adCategories: adCategoriesRouter,
  advertisers: advertisersRouter,
  campaigns: campaignsRouter,
  flights: flightsRouter,
  podcasts: podcastsRouter,
  voiceConsents: voiceConsentsRouter,
  offers: offersRouter,
  offerDelivery: offerDeliveryRouter,
  reports: reportsRouter,
  creatives: creativesRouter,
  creativeReviews: creativeReviewsRouter,
  webhooks: webhooksRouter,
  emails: emailsRouter,
  search: searchRouter,
  signIn: signInRouter,
  passkeys: passkeysRouter,
  notifications: notificationsRouter,
});

// Answers are parsed by their schemas; outside production strictly: a parse that changes an answer fails (server/output-checks.ts).
checkOutputs(appRouter, outputCheckOfProcess);

export type AppRouter = typeof appRouter;
