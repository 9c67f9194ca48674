// Every byte of a tool schema is paid on every model request (docs/tools.md, "Context cost"), so the
// JSON Schema zod produces is trimmed of what tells the model nothing: the ±2^53 bounds `.int()` adds.
type Json = Record<string, unknown>;

export function compactJsonSchema<T>(node: T): T {
  if (Array.isArray(node)) {
    for (const item of node) compactJsonSchema(item);
  } else if (node && typeof node === 'object') {
    const obj = node as Json;
    if (obj.maximum === Number.MAX_SAFE_INTEGER) delete obj.maximum;
    if (obj.minimum === Number.MIN_SAFE_INTEGER) delete obj.minimum;
    for (const value of Object.values(obj)) compactJsonSchema(value);
  }
  return node;
}
