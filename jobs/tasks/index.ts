import type { JobHelpers, Task, TaskList } from 'graphile-worker';
import { expireOffers } from '@/server/services/offers/expire-offers';
import { database } from '@/db/client';
import { autoDisableFailingWebhooks } from '@/server/services/webhooks/auto-disable';
import { pruneWebhookDeliveries } from '@/server/services/webhooks/retention';
import { sendEmail } from '@/server/services/mail/send-email';
import { noticeExpiringKeys } from '@/server/services/notifications/expiring-keys';
import { withdrawLapsedConsents } from '@/server/services/creatives/consent-gate';
import { checkFlightPacing } from '@/server/services/flights/pacing-alerts';
import { sendSignInLink } from '@/server/services/sign-in/request-sign-in';
import { maintainTracking } from '@/server/services/tracking/partitions';
import { taskPayloadSchemas, type TaskName, type TaskPayload } from '@/server/jobs/payloads';
import { deliverWebhook } from './deliver-webhook';
import { pruneIdempotencyKeys } from './prune-idempotency-keys';
import { synthesizeCreative } from './synthesize-creative';

export const crontab = [
  '*/15 * * * * prune-idempotency-keys',
  '* * * * * expire-offers',
  '7 * * * * auto-disable-webhooks',
  '37 * * * * prune-webhook-deliveries',
  '23 * * * * notice-expiring-keys',
  '* * * * * withdraw-lapsed-consents',
  '3 * * * * maintain-tracking',
  // Daily; safe to run again (each event is sent once): server/services/flights/pacing-alerts.ts.
  '0 6 * * * check-flight-pacing',
].join('\n');

/** The task `name`, its payload parsed with its schema (server/jobs/payloads.ts) before `run` sees it. */
function task<T extends TaskName>(name: T, run: (payload: TaskPayload<T>, helpers: JobHelpers) => Promise<unknown>): Task {
  return async (raw, helpers) => {
    await run(taskPayloadSchemas[name].parse(raw ?? {}) as TaskPayload<T>, helpers);
  };
}

export const taskList: TaskList = {
  'prune-idempotency-keys': task('prune-idempotency-keys', pruneIdempotencyKeys),
  'expire-offers': task('expire-offers', () => expireOffers({ db: database() })),
  'synthesize-creative': task('synthesize-creative', synthesizeCreative),
  'deliver-webhook': task('deliver-webhook', deliverWebhook),
  'auto-disable-webhooks': task('auto-disable-webhooks', () => autoDisableFailingWebhooks({ db: database() })),
  'prune-webhook-deliveries': task('prune-webhook-deliveries', () => pruneWebhookDeliveries({ db: database() })),
  'notice-expiring-keys': task('notice-expiring-keys', () => noticeExpiringKeys({ db: database() })),
  'withdraw-lapsed-consents': task('withdraw-lapsed-consents', () => withdrawLapsedConsents({ db: database() })),
  'maintain-tracking': task('maintain-tracking', () => maintainTracking({ db: database() })),
  'check-flight-pacing': task('check-flight-pacing', () => checkFlightPacing({ db: database() })),
  'send-email': task('send-email', ({ emailId }, helpers) => sendEmail({ db: database(), emailId, helpers })),
  'request-sign-in': task('request-sign-in', ({ email }) => database().transaction((tx) => sendSignInLink({ tx, email }))),
};
