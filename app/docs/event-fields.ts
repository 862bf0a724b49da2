/** The parts of a property's JSON Schema the field table shows. */
interface JsonSchemaProperty {
  type?: string;
  enum?: unknown[];
  anyOf?: JsonSchemaProperty[];
  description?: string;
}

export interface DataField {
  name: string;
  type: string;
  required: boolean;
  description: string;
}

function typeName(property: JsonSchemaProperty): string {
  if (property.anyOf) return property.anyOf.map(typeName).join(' or ');
  const type = property.type ?? 'any';
  return property.enum ? `${type}, one of ${property.enum.map(String).join(', ')}` : type;
}

/** The rows of a `data` field table, read from the JSON Schema the API publishes (not from zod), so the table shows what clients get. */
export function dataFields(schema: Record<string, unknown>): DataField[] {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchemaProperty>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    type: typeName(property),
    required: required.has(name),
    description: property.description ?? '',
  }));
}
