/**
 * A small integration: list the networks a key can reach, create an advertiser
 * and a campaign in one of them, then subscribe a local endpoint to opt-in
 * events, opt a podcast in and wait for the signed delivery.
 *
 *   AD_NETWORK_URL=http://127.0.0.1:3000 AD_NETWORK_TOKEN=sk_test_… npx tsx src/main.ts
 *
 * AD_NETWORK_ID picks the network (default: the first listed). The webhook
 * step needs a server that may call 127.0.0.1 (WEBHOOK_ALLOW_PRIVATE=1) and an
 * administrator key; set SKIP_WEBHOOK=1 to leave it out.
 */
import { adNetworkClient, ok } from './client';
import { startReceiver, type WebhookEvent } from './receiver';

const baseUrl = process.env.AD_NETWORK_URL ?? 'http://127.0.0.1:3000';
const token = process.env.AD_NETWORK_TOKEN;
if (!token) throw new Error('Set AD_NETWORK_TOKEN to an API key.');
const api = adNetworkClient(baseUrl, token);

const networks = ok(await api.GET('/networks', { params: { query: { limit: 50 } } }));
console.log(`networks: ${networks.items.map((n) => `${n.id} (${n.name})`).join(', ') || 'none'}`);
const networkId = process.env.AD_NETWORK_ID ?? networks.items[0]?.id;
if (!networkId) throw new Error('The key reaches no network.');
const path = { networkId };

const advertiser = ok(await api.POST('/networks/{networkId}/advertisers', { params: { path }, body: { name: 'Example Coffee Co.' } }));
const campaign = ok(
  await api.POST('/networks/{networkId}/campaigns', {
    params: { path },
    body: { name: 'Spring roast', advertiser_id: advertiser.id, script: 'Wake up to Example Coffee.', status: 'active' },
  }),
);
console.log(`campaign: ${campaign.id} (${campaign.status}, version ${campaign.version})`);

let delivered: WebhookEvent | undefined;
if (!process.env.SKIP_WEBHOOK) {
  let secret = '';
  let onEvent: (event: WebhookEvent) => void = () => {};
  const arrived = new Promise<WebhookEvent>((resolve) => (onEvent = resolve));
  const receiver = await startReceiver(
    () => secret,
    (event) => onEvent(event),
  );
  const hook = ok(await api.POST('/networks/{networkId}/webhooks', { params: { path }, body: { url: receiver.url, events: ['optin.completed'] } }));
  secret = hook.secret; // shown once: store it (encrypted) with your integration's settings
  const podcast = ok(await api.POST('/networks/{networkId}/podcasts', { params: { path }, body: { name: 'Morning Show', host_name: 'Sam' } }));
  ok(await api.POST('/networks/{networkId}/podcasts/{podcastId}/opt-in', { params: { path: { ...path, podcastId: podcast.id } } }));
  const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no webhook within 15 s')), 15_000));
  delivered = await Promise.race([arrived, timeout]);
  console.log(`webhook: verified ${delivered.type} ${delivered.id}`);
  receiver.server.close();
}

console.log(
  JSON.stringify({
    networks: networks.items.length,
    networkId,
    campaignId: campaign.id,
    webhook: delivered ? { type: delivered.type, id: delivered.id } : null,
  }),
);
process.exit(0);
