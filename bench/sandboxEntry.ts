// What bench/sandbox.bench.mjs needs from the sources, bundled by it with esbuild.
export { CommandBoundary } from '../src/tools/boundary/commandBoundary';
export { DEFAULT_SANDBOX_SETTINGS } from '../src/tools/boundary/sandboxSettings';
export { probeBwrap } from '../src/platform/sandbox/bwrapSandbox';
export { spawnShell } from '../src/platform/processes';
export { socketFolderArgs } from '../src/platform/sandbox/unixSockets';
