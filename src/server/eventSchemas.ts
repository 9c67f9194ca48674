// The payloads of the live events a browser draws from (docs/server.md "Live events"), as JSON Schema 2020-12: put
// in /openapi.json's `components.schemas` (named `event.<type>`) and checked against what the server sends by the
// tests, so the description and the events cannot drift apart.
import type { JsonSchema } from './routeKit';

const nullableString = { type: ['string', 'null'] };

const closed = (properties: Record<string, JsonSchema>, required = Object.keys(properties)): JsonSchema => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

export const EVENT_SCHEMAS: Record<string, JsonSchema> = {
  'message.delta': {
    description:
      'volatile (seq 0, never replayed): a piece of the main agent message in progress; a `message` event with the same message_id ends it, and a `retry` message with it discards what streamed so far',
    ...closed({
      prompt_id: nullableString,
      message_id: nullableString,
      kind: { type: 'string', enum: ['text', 'thinking'] },
      delta: { type: 'string' },
    }),
  },
};
