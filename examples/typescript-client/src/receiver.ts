import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from './verify';

export interface WebhookEvent {
  id: string;
  type: string;
  occurred_at: string;
  data: Record<string, unknown>;
}

/**
 * A webhook endpoint: reads the raw body, verifies the signature, answers 401
 * when it does not match and 200 otherwise, and hands each verified event to
 * `onEvent` once — retries carry the same X-Service-Delivery, so it de-duplicates.
 */
export async function startReceiver(secret: () => string, onEvent: (event: WebhookEvent) => void): Promise<{ url: string; server: Server }> {
  const seen = new Set<string>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      if (!verifyWebhook(raw, String(req.headers['x-service-signature'] ?? ''), secret())) {
        res.writeHead(401).end();
        return;
      }
      res.writeHead(200).end();
      const deliveryId = String(req.headers['x-service-delivery']);
      if (seen.has(deliveryId)) return;
      seen.add(deliveryId);
      onEvent(JSON.parse(raw.toString('utf8')) as WebhookEvent);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`, server };
}
