// Bundled by bench/computerUse.bench.mjs: the computer-use desktop, in this process (no MCP in between).
export { Desktop, TYPE_DELAY_MS } from '../src/plugins/jarvis-computer-use/desktop';
