import { describe, expect, it } from 'vitest';
import { flightPacing } from './pacing';

const startsAt = new Date('2026-12-01T00:00:00Z');
const endsAt = new Date('2026-12-11T00:00:00Z'); // ten days
const day = (n: number) => startsAt.getTime() + n * 86_400_000;

describe('flight pacing: delivered against an even delivery of the goal over the dates', () => {
  it('expects the goal in proportion to the time elapsed', () => {
    expect(flightPacing({ goal: 10_000, startsAt, endsAt, delivered: 3_000, now: day(3) })).toEqual({
      delivered: 3_000,
      expectedToDate: 3_000,
      ratio: 1,
      status: 'on_track',
    });
    expect(flightPacing({ goal: 10_000, startsAt, endsAt, delivered: 0, now: day(-1) }).expectedToDate).toBe(0);
    expect(flightPacing({ goal: 10_000, startsAt, endsAt, delivered: 0, now: day(20) }).expectedToDate).toBe(10_000);
  });

  it('is on track within 10 % either way, behind or ahead beyond', () => {
    const at = (delivered: number) => flightPacing({ goal: 10_000, startsAt, endsAt, delivered, now: day(5) }).status;
    expect(at(4_500)).toBe('on_track');
    expect(at(4_499)).toBe('behind');
    expect(at(5_500)).toBe('on_track');
    expect(at(5_501)).toBe('ahead');
  });

  it('is goal_reached once delivered reaches the goal, whenever that is', () => {
    expect(flightPacing({ goal: 100, startsAt, endsAt, delivered: 100, now: day(1) }).status).toBe('goal_reached');
    expect(flightPacing({ goal: 100, startsAt, endsAt, delivered: 99, now: day(30) }).status).toBe('on_track');
    expect(flightPacing({ goal: 100, startsAt, endsAt, delivered: 89, now: day(30) }).status).toBe('behind');
  });

  it('has no ratio while nothing is expected, and is then on track', () => {
    expect(flightPacing({ goal: 100, startsAt, endsAt, delivered: 5, now: day(-2) })).toMatchObject({ ratio: null, status: 'on_track' });
  });
});
