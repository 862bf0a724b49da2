// No database code here: the API schema that describes the figures imports it (the console bundles it).
/**
 * The 24 h figures count at most this many of the latest attempted deliveries, so a page costs the
 * same whatever a subscription's volume (counting all of 800 k deliveries a day took ~0.7 s a page).
 */
export const HEALTH_WINDOW_LIMIT = 1000;
