/** Every event type the service records and delivers (spec: Events). */
export const EVENT_TYPES = {
  'offer.accepted': 'A campaign offer is accepted.',
  'offer.rejected': 'A campaign offer is rejected.',
  'optin.completed': 'A podcast completes opt-in.',
  'invitation.accepted': 'A network invitation is accepted.',
  'creative.ready': 'A host-voiced creative has finished generating and its audio is ready.',
  'creative.failed': 'A creative failed to generate.',
} as const;

export type EventType = keyof typeof EVENT_TYPES;

export const EVENT_TYPE_NAMES = Object.keys(EVENT_TYPES) as [EventType, ...EventType[]];
