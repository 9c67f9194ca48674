// A CommonJS package loaded with import() has two shapes: run from src/, Node's loader gives its exports
// as named exports and as `default`; in the bundle (scripts/build.mjs) the package's chunk exports only
// `default`, the module.exports object. docs/testing.md: test/package/bundledLibraries.test.ts catches a
// lazy import that reads a named export the bundle does not have.

/** module.exports of a CommonJS package, in both shapes. Only for CommonJS packages. */
export function commonJsExports<T extends object>(namespace: T): T {
  const exported = (namespace as { default?: unknown }).default;
  const isExports = exported !== null && (typeof exported === 'object' || typeof exported === 'function');
  return (isExports ? exported : namespace) as T;
}
