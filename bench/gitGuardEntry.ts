// What bench/gitGuard.bench.mjs needs from the sources, bundled by it with esbuild.
export { runGit } from '../src/platform/git';
