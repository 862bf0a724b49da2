/**
 * The delivery retention window, without database imports: the console's form validates `since`
 * with the same schema (server/routers/webhooks/recover-deliveries.types.ts).
 */

/** Days a delivery (its body and attempts) is kept after it was created (WEBHOOK_RETENTION_DAYS, default 30). */
export function retentionDays(): number {
  const n = Number(process.env.WEBHOOK_RETENTION_DAYS ?? 30);
  return Number.isFinite(n) && n > 0 ? n : 30;
}

/** The oldest creation time still inside the retention window. */
export function retentionCutoff(now = Date.now()): Date {
  return new Date(now - retentionDays() * 86_400_000);
}
