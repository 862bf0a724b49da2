'use client';

import { useQuery } from '@tanstack/react-query';
import { EVENT_TYPES, type EventType } from '@/domain/events';
import { DetailItem, DetailList, DetailSheet, Loaded } from '@/app/(console)/_components/detail-sheet';
import { DateTime } from '@/app/(console)/_components/ui/date-time';
import { IntentLink } from '@/app/(console)/_components/ui/intent-link';
import { describeEvent, type EventNames } from '@/app/(console)/_lib/event-summary';
import { networkPath, useNetworkId } from '@/app/(console)/_lib/network';
import { linkedIds } from '@/app/(console)/_lib/object-links';
import { useTRPC, type RouterOutputs } from '@/app/(console)/_lib/trpc';

export type Event = RouterOutputs['events']['get'];

/** One event (`/events?event=evt_…`): what it says, the objects it names, and its data as webhooks receive it. */
export function EventSheet({ eventId, onClose, names }: { eventId: string | null; onClose: () => void; names: EventNames }) {
  return (
    <DetailSheet objectId={eventId} onClose={onClose} title="Event">
      {(id) => <EventDetail eventId={id} names={names} />}
    </DetailSheet>
  );
}

function EventDetail({ eventId, names }: { eventId: string; names: EventNames }) {
  const trpc = useTRPC();
  const networkId = useNetworkId();
  const event = useQuery(trpc.events.get.queryOptions({ networkId, eventId }));
  return (
    <Loaded query={event}>
      {(e) => {
        const links = linkedIds(networkId, e.data);
        return (
          <div className="space-y-6">
            <DetailList>
              <DetailItem label="Type">
                <span className="font-mono text-xs font-medium">{e.type}</span>
              </DetailItem>
              <DetailItem label="Occurred">
                <DateTime value={e.occurred_at} />
              </DetailItem>
              <DetailItem label="What happened" wide>
                {describeEvent(e.type, e.data, names).text}
              </DetailItem>
              <DetailItem label="Meaning" wide>
                {EVENT_TYPES[e.type as EventType]}
              </DetailItem>
            </DetailList>
            {links.length > 0 && (
              <section aria-labelledby="event-objects">
                <h3 id="event-objects" className="text-sm font-semibold text-slate-900">
                  Objects
                </h3>
                <ul className="mt-2 space-y-1.5 text-sm">
                  {links.map((link) => (
                    <li key={link.field} className="flex flex-wrap items-baseline gap-x-2">
                      <span className="text-slate-600">{link.kind}</span>
                      <IntentLink href={link.href} className="font-mono text-xs break-all text-indigo-700 underline-offset-4 hover:underline">
                        {link.id}
                      </IntentLink>
                      <IntentLink
                        href={`${networkPath(networkId, 'events')}?${new URLSearchParams({ object: link.id }).toString()}`}
                        className="text-xs text-slate-600 underline underline-offset-4 hover:text-slate-900"
                      >
                        its events
                      </IntentLink>
                    </li>
                  ))}
                </ul>
              </section>
            )}
            <section aria-labelledby="event-data">
              <h3 id="event-data" className="text-sm font-semibold text-slate-900">
                Data
              </h3>
              <pre className="mt-2 overflow-x-auto rounded-md bg-slate-100 p-3 font-mono text-xs text-slate-900" tabIndex={0} aria-label="Event JSON">
                {JSON.stringify(e, null, 2)}
              </pre>
            </section>
          </div>
        );
      }}
    </Loaded>
  );
}
