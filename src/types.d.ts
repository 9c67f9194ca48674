// Model-facing tool descriptions are Markdown files bundled as text (esbuild loader, vitest plugin).
declare module '*.md' {
  const text: string;
  export default text;
}
