// What the route tables share (docs/server.md "Endpoints"): the route and context types, the JSON Schema builders the
// tables' request schemas are written with, and small helpers. The HTTP server validates with these schemas and
// /openapi.json is generated from them (openapi.ts), so the published description cannot drift.
import type { ServerSession } from './serverSession';
import type { SessionRegistry } from './sessionRegistry';

export type JsonSchema = Record<string, unknown>;

export interface RouteContext {
  params: Record<string, string>;
  query: Record<string, string | number | boolean>;
  body: Record<string, unknown>;
  clientId: string;
  registry: SessionRegistry;
  meta: () => Record<string, unknown>;
}

export interface Route {
  method: 'GET' | 'POST';
  /** `{name}` marks a path parameter; `:action` is SPEC §10.2's action convention. */
  path: string;
  summary: string;
  tag: string;
  query?: Record<string, JsonSchema>;
  body?: JsonSchema;
  /** The largest body this route takes (default 1 MiB): prompts with images take more. */
  maxBody?: number;
  handler(ctx: RouteContext): unknown;
}

export const str = { type: 'string', minLength: 1, maxLength: 100_000 };
export const bool = { type: 'boolean' };
export const obj = (properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});
export const MODES = { type: 'string', enum: ['manual', 'auto', 'yolo'] };

export async function session(ctx: RouteContext): Promise<ServerSession> {
  return ctx.registry.get(ctx.params.id);
}

export function page<T>(items: T[], size: number): { items: T[]; has_more: boolean } {
  return { items: items.slice(-size), has_more: items.length > size };
}
