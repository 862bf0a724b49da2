import { describe, expect, it } from 'vitest';
import { describeEvent } from '@/app/(console)/_lib/event-summary';
import { EVENT_DATA_EXAMPLES, EVENT_TYPE_NAMES } from '@/domain/events';

/* The console's event log says each event in a sentence with names, and links to what it is about. */

const names = { campaigns: new Map([['cmp_01jd8x6v2c9q7r5t3w1y0zabcd', 'Spring sale']]), podcasts: new Map<string, string>() };

describe('event log sentences', () => {
  it('every type of the catalog has a sentence of its own, not the fallback list of ids', () => {
    for (const type of EVENT_TYPE_NAMES) {
      const { text } = describeEvent(type, EVENT_DATA_EXAMPLES[type] as Record<string, unknown>, names);
      expect(text, type).not.toMatch(/^[a-z_]+: /);
    }
  });

  it('pacing events name the campaign, give the counts and open the flight’s delivery', () => {
    const reached = describeEvent('flight.goal_reached', EVENT_DATA_EXAMPLES['flight.goal_reached'], names);
    expect(reached).toEqual({
      text: 'A flight of “Spring sale” reached its goal: 100,412 of 100,000 impressions',
      section: 'campaigns/cmp_01jd8x6v2c9q7r5t3w1y0zabcd/flights/flt_01jd8x6v2c9q7r5t3w1y0zabcd',
    });
    const behind = describeEvent('flight.underdelivering', EVENT_DATA_EXAMPLES['flight.underdelivering'], names);
    expect(behind.text).toMatch(/^A flight of “Spring sale” is behind pace: [\d,]+ impressions, [\d,]+ expected by now$/);
  });
});
