import type { FLIGHT_STATUSES } from '@/domain/statuses';
import type { FlightRow } from './find-flights';

export type FlightStatus = (typeof FLIGHT_STATUSES)[number];

// Pure (no database code): the API schemas that present flights are imported by the console too.
/** Never stored: scheduled before starts_at, live from starts_at until ends_at, ended from ends_at on. */
export function flightStatus(row: Pick<FlightRow, 'startsAt' | 'endsAt'>, now = Date.now()): FlightStatus {
  if (now < row.startsAt.getTime()) return 'scheduled';
  return now < row.endsAt.getTime() ? 'live' : 'ended';
}
