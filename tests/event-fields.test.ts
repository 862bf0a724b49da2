import { describe, expect, it } from 'vitest';
import { dataFields } from '@/app/docs/event-fields';
import { EVENT_TYPE_NAMES, eventDataJsonSchema } from '@/domain/events';

describe('the field tables of /docs#webhook-events', () => {
  it('name every property of each published data schema, in order', () => {
    for (const type of EVENT_TYPE_NAMES) {
      const schema = eventDataJsonSchema(type) as { properties: Record<string, unknown> };
      expect(
        dataFields(schema).map((f) => f.name),
        type,
      ).toEqual(Object.keys(schema.properties));
    }
  });

  it('read types, nullability, enums, descriptions and optional fields from the JSON Schema', () => {
    expect(dataFields(eventDataJsonSchema('offer.rejected')).find((f) => f.name === 'reason')).toEqual({
      name: 'reason',
      type: 'string or null',
      required: true,
      description: 'Why, when the podcast gave a reason.',
    });
    expect(dataFields(eventDataJsonSchema('invitation.accepted')).find((f) => f.name === 'role')?.type).toBe(
      'string, one of read_only, administrator',
    );
    expect(dataFields(eventDataJsonSchema('creative.ready')).find((f) => f.name === 'duration_ms')?.type).toBe('integer');
    expect(dataFields({ type: 'object', properties: { note: { type: 'string' } }, required: [] })).toEqual([
      { name: 'note', type: 'string', required: false, description: '' },
    ]);
  });
});
