import { createHmac } from 'node:crypto';

/** Lowercase hex HMAC-SHA256 of the exact body bytes, keyed by the subscription secret. */
export function sign(secret: string, body: string | Buffer): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/**
 * The X-Service-Signature value: one signature per secret, comma separated —
 * two during a secret rotation, so receivers can switch at their own pace.
 */
export function signatureHeader(secrets: string[], body: string | Buffer): string {
  return secrets.map((s) => sign(s, body)).join(',');
}
