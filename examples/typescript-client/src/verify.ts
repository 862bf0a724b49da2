import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Verify `X-Service-Signature` over the raw request bytes (before any JSON
 * parsing): lowercase hex HMAC-SHA256 with the subscription's secret. During a
 * secret rotation the header carries two signatures, comma separated; either
 * may match.
 */
export function verifyWebhook(rawBody: Buffer, signatureHeader: string, secret: string): boolean {
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  return signatureHeader.split(',').some((candidate) => {
    const given = Buffer.from(candidate.trim(), 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
