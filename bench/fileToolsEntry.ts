// Bundled by bench/fileTools.bench.mjs: the real Grep and Glob tools, run the way the engine runs them.
export { grepTool, globTool } from '../src/tools/file';
export { makeToolHarness } from '../test/helpers/toolHarness';
export { defaultRipgrep } from '../src/platform/ripgrep';
