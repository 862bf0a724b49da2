import { missingRequiredLine } from '@/domain/creative-review';
import { badRequest, type FieldError } from '@/server/errors';

/** The schedule and budget of a campaign, as they will be after a write. */
export interface CampaignTerms {
  startsAt: Date | null;
  endsAt: Date | null;
  budgetCents: number | null;
  currency: string | null;
}

/** Rules across fields, checked on the values a create or update would leave (400 naming the field). */
export function assertCampaignTerms(terms: CampaignTerms): void {
  const errors: FieldError[] = [];
  if (terms.startsAt && terms.endsAt && terms.endsAt.getTime() <= terms.startsAt.getTime()) {
    errors.push({ path: 'ends_at', message: 'ends_at must be after starts_at.' });
  }
  if (terms.budgetCents !== null && !terms.currency) {
    errors.push({ path: 'currency', message: 'currency is required when budget_cents is set.' });
  }
  const first = errors[0];
  if (first) throw badRequest(`Invalid request: ${first.path}: ${first.message}`, errors);
}

/** The script must contain each required line word for word (domain/creative-review.ts): else a 400 naming the line. */
export function assertScriptHasRequiredLines({ script, requiredLines }: { script: string; requiredLines: readonly string[] }): void {
  const missing = missingRequiredLine(script, requiredLines);
  if (missing === undefined) return;
  throw badRequest(`The script lacks the required line “${missing}”: it must contain each required line word for word.`, [
    { path: 'script', message: `Missing the required line: “${missing}”` },
  ]);
}
