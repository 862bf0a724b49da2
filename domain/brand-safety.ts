/** The brand-safety rules a refusal (409 brand-safety) or an ineligible podcast names (server/services/brand-safety/). */
export const BRAND_SAFETY_RULES = ['blocked_advertiser', 'excluded_category', 'competitive_separation'] as const;
export type BrandSafetyRule = (typeof BRAND_SAFETY_RULES)[number];
