// An event's payload checked against the schema /openapi.json publishes for it (src/server/eventSchemas.ts,
// docs/server.md "Live events"), so the description and what the server sends cannot drift apart.
import Ajv2020 from 'ajv/dist/2020.js';
import { expect } from 'vitest';
import { EVENT_SCHEMAS } from '../../src/server/eventSchemas';
import type { WsFrame } from './serveProcess';

const ajv = new Ajv2020({ strict: false });

export function expectDescribed(frame: WsFrame): void {
  const schema = EVENT_SCHEMAS[frame.type];
  expect(schema, `no published schema for ${frame.type}`).toBeDefined();
  const validate = ajv.getSchema(frame.type) ?? (ajv.addSchema(schema, frame.type), ajv.getSchema(frame.type)!);
  expect(validate(frame.payload), `${frame.type}: ${JSON.stringify(validate.errors)}`).toBe(true);
}
