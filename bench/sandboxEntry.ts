// What bench/sandbox.bench.mjs needs from the sources, bundled by it with esbuild.
export { CommandSandbox, DEFAULT_SANDBOX_SETTINGS } from '../src/tools/shell/commandSandbox';
export { probeBwrap } from '../src/platform/sandbox/bwrapSandbox';
export { sandboxSpawnEnv, spawnShell } from '../src/platform/processes';
export { socketFolderArgs } from '../src/platform/sandbox/unixSockets';
