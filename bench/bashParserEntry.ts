// What bench/bashParser.bench.mjs needs from the sources, bundled by it with esbuild.
export { loadBashParser } from '../src/platform/bashSyntax';
export { analyseShellCommandWith } from '../src/engine/policy/shellCommands';
