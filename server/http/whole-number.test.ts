import { describe, expect, it } from 'vitest';
import { wholeNumberField } from './whole-number';

const messageOf = (result: { success: boolean; error?: { issues: Array<{ message: string }> } }) => result.error?.issues[0]?.message;

describe('wholeNumberField', () => {
  const days = wholeNumberField('days', { min: 1, max: 30, fallback: 7 });

  it('takes a whole number in the range, and the fallback when absent', () => {
    expect(days.parse(30)).toBe(30);
    expect(days.parse(undefined)).toBe(7);
  });

  it('names the field and its range in every refusal', () => {
    expect(messageOf(days.safeParse('3'))).toBe('days must be a whole number from 1 to 30.');
    expect(messageOf(days.safeParse(1.5))).toBe('days must be a whole number from 1 to 30.');
    expect(messageOf(days.safeParse(0))).toBe('days must be at least 1.');
    expect(messageOf(days.safeParse(31))).toBe('days must be at most 30.');
  });

  it('reads a query parameter’s text when coerced', () => {
    const limit = wholeNumberField('limit', { min: 1, max: 200, fallback: 50, coerce: true });
    expect(limit.parse('20')).toBe(20);
    expect(messageOf(limit.safeParse('many'))).toBe('limit must be a whole number from 1 to 200.');
  });
});
