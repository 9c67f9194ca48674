// The start path. `--version` answers before anything else is loaded; every other command loads
// the program lazily, so `jarvis --version` costs little more than starting Node.
declare const __JARVIS_VERSION__: string;

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${__JARVIS_VERSION__}\n`);
} else {
  const { runCli } = await import('./program');
  process.exitCode = await runCli(argv, __JARVIS_VERSION__);
}

export {};
