// /openapi.json (docs/server.md "Endpoints") is generated from the route table the server validates with; here it is
// checked against the published OpenAPI 3.1 schema (vendored in fixtures/, see its $comment) with Ajv's 2020-12
// validator, and each route's request schemas must compile as JSON Schema 2020-12.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/server/openapi';
import { ROUTES } from '../../src/server/routes';
import { EVENT_SCHEMAS } from '../../src/server/eventSchemas';

const schema = JSON.parse(readFileSync(join(__dirname, 'fixtures/openapi-3.1-schema.json'), 'utf8')) as Record<
  string,
  unknown
>;

describe('openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', () => {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(ajv as never);
    const validate = ajv.compile(schema);
    const doc = openApiDocument('1.2.3');
    expect(validate(doc), JSON.stringify(validate.errors, null, 2)).toBe(true);
    // The validator is not a rubber stamp: a document with a broken operation fails.
    const broken = structuredClone(doc) as { paths: Record<string, Record<string, Record<string, unknown>>> };
    broken.paths['/api/v1/meta'].get.parameters = [{ name: 'x', in: 'nowhere' }];
    expect(validate(broken)).toBe(false);
  });

  it('describes every route of the table with the schemas the server validates with', () => {
    const doc = openApiDocument('1.2.3') as {
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: unknown }> } }>>;
    };
    for (const r of ROUTES) {
      const op = doc.paths[r.path]?.[r.method.toLowerCase()];
      expect(op, `${r.method} ${r.path}`).toBeDefined();
      if (r.body) expect(op.requestBody!.content['application/json'].schema).toBe(r.body);
    }
    const ids = Object.values(doc.paths).flatMap((p) =>
      Object.values(p).map((o) => (o as { operationId: string }).operationId),
    );
    expect(new Set(ids).size).toBe(ids.length);
    const ajv = new Ajv2020({ strict: true, strictRequired: false });
    for (const r of ROUTES) if (r.body) expect(() => ajv.compile(r.body!), r.path).not.toThrow();
  });

  it('describes the live events as components a validator compiles', () => {
    const doc = openApiDocument('1.2.3') as { components: { schemas: Record<string, unknown> } };
    const ajv = new Ajv2020({ strict: true, strictRequired: false });
    for (const [type, schema] of Object.entries(EVENT_SCHEMAS)) {
      expect(doc.components.schemas[`event.${type}`]).toBe(schema);
      expect(() => ajv.compile(schema), type).not.toThrow();
    }
    expect(Object.keys(EVENT_SCHEMAS)).toContain('message.delta');
  });
});
