// Argument parsing, flag-conflict rules (docs/print-mode.md, "Flag rules") and subcommand dispatch.
import { writeFileSync } from 'node:fs';
import { Command, CommanderError, Option } from 'commander';
import { closestKey } from '../store/configFields';
import type { PolicyTestMode } from './policyCommand';
import { capsFromFlags } from './runFlags';

export interface MainOptions {
  session?: string | true;
  continue?: boolean;
  model?: string;
  /** The -p value; `true` for a bare -p (the prompt comes on stdin, as with `-p -`). */
  prompt?: string | true;
  outputFormat?: string;
  yolo?: boolean;
  auto?: boolean;
  plan?: boolean;
  skillsDir?: string[];
  agent?: string[];
  agentFile?: string[];
  addDir?: string[];
  /** Add the browser page tools to the agent. */
  browser?: boolean;
  /** Attach the browser tools to a running browser (like `[browser] cdp_url`); implies --browser. */
  browserCdp?: string;
  /** A visible browser window instead of a headless one. */
  headed?: boolean;
  /** Print mode: a JSON Schema file the final answer must satisfy (docs/print-mode.md "Structured output"). */
  outputSchema?: string;
  /** Print mode's caps, as given (runFlags.ts parses them; docs/print-mode.md "Caps"). */
  maxTurns?: string;
  maxBudgetUsd?: string;
  timeout?: string;
  /** Print mode: trust the working folder first, as the interactive UI's yes records it (docs/ui.md). */
  trust?: boolean;
}

export class UsageError extends Error {}

/**
 * What `jarvis --help` (and `jarvis -p --help`) says of print mode's permissions (docs/print-mode.md), wrapped
 * for an 80-column terminal (commander prints it as it is).
 */
const PRINT_MODE_HELP = `
Print mode (-p) always runs in auto permission mode, since nobody is there to
answer a question: tool calls run without asking, Bash commands inside the
command sandbox where it can run (docs/sandbox.md); deny rules still refuse;
sensitive files, paths outside the workspace (this folder and --add-dir
folders) and commands asking to leave the sandbox are refused unless an allow
rule covers them. --yolo and --auto are accepted and change nothing there;
--plan is refused. The answer goes to stdout, tool activity and notices to
stderr (docs/print-mode.md).`;

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** Applies the flag rules of docs/print-mode.md; returns the first conflict as a message, or undefined. */
export function flagConflict(o: MainOptions, promptGiven: boolean): string | undefined {
  if (o.continue && o.session !== undefined) return '--continue and --session both resume a session; use one of them.';
  if (o.yolo && o.auto) return '--yolo and --auto are different permission modes; use one of them.';
  // docs/print-mode.md: with --prompt, --yolo and --auto are accepted and change nothing; --plan is refused.
  if (promptGiven && o.plan)
    return '--plan cannot be used with --prompt: print mode always runs in auto mode and cannot stop for a plan review.';
  if (o.outputFormat !== undefined && !promptGiven)
    return '--output-format only applies to print mode; add --prompt "<task>" (or -p).';
  if (o.outputFormat !== undefined && !['text', 'stream-json', 'json'].includes(o.outputFormat))
    return `--output-format must be text, stream-json or json, got "${o.outputFormat}".`;
  const runFlags = (
    [
      ['--output-schema', o.outputSchema],
      ['--max-turns', o.maxTurns],
      ['--max-budget-usd', o.maxBudgetUsd],
      ['--timeout', o.timeout],
    ] as const
  ).filter(([, value]) => value !== undefined);
  if (runFlags.length && !promptGiven)
    return `${runFlags.map(([flag]) => flag).join(', ')} only appl${runFlags.length === 1 ? 'ies' : 'y'} to print mode; add --prompt "<task>" (or -p).`;
  const caps = capsFromFlags(o);
  if ('error' in caps) return caps.error;
  if (o.headed && o.browserCdp !== undefined)
    return '--headed starts a visible browser of its own; --browser-cdp attaches to your running browser, whose window you already see. Use one of them.';
  if ((o.agent?.length ?? 0) > 1) return '--agent may only be given once.';
  if ((o.agentFile?.length ?? 0) > 1) return '--agent-file may only be given once.';
  if (o.agent?.length && o.agentFile?.length)
    return '--agent and --agent-file both choose the main agent; use one of them.';
  if ((o.agent?.length || o.agentFile?.length) && (o.continue || o.session !== undefined)) {
    return 'An agent is chosen when a session is created; a resumed session keeps its own. Drop --agent/--agent-file or start a new session.';
  }
  return undefined;
}

/** JARVIS_DIAGNOSTICS_FILE: write this process's resource usage (CPU, peak RSS) there on exit (benchmarks). */
function writeDiagnosticsOnExit(): void {
  const file = process.env.JARVIS_DIAGNOSTICS_FILE;
  if (!file) return;
  process.on('exit', () => {
    try {
      writeFileSync(file, JSON.stringify(process.resourceUsage()));
    } catch {
      // diagnostics must never change how the program ends
    }
  });
}

/**
 * An unknown subcommand, with the closest one (`jarvis doctr` → doctor). The root command takes an argument, so
 * commander hands the word to its action instead of suggesting itself. Words with a space are a prompt.
 */
export function unknownCommandMessage(program: Command, word: string): string {
  if (/\s/.test(word.trim()))
    return `unknown command '${word}'. To send it as a prompt, run jarvis -p "${word}" (print mode), or start jarvis and type it.`;
  const names = program
    .createHelp()
    .visibleCommands(program)
    .map((c) => c.name())
    .filter((name) => name !== 'help');
  const closest = closestKey(word, names);
  const suggestion = closest ? ` Did you mean jarvis ${closest}?` : '';
  return `unknown command '${word}'.${suggestion} Run jarvis --help to see the commands.`;
}

export async function runCli(argv: string[], version: string): Promise<number> {
  writeDiagnosticsOnExit();
  let exitCode = 0;
  const program = new Command('jarvis')
    .description('Jarvis Code CLI — an AI coding agent for your terminal')
    .version(version, '-V, --version')
    .helpOption('-h, --help')
    .exitOverride()
    // Options after a subcommand belong to it (`jarvis export -y` is export's --yes, not --yolo).
    .enablePositionalOptions()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) })
    .option('-S, --session [id]', 'resume a session (with an id: that session)')
    .option('-c, --continue', 'resume the most recent session of this folder')
    .option('-m, --model <alias>', 'model alias for this launch')
    .option(
      '-p, --prompt [text]',
      'run one prompt non-interactively (print mode, always in auto permission mode: see below); text piped on stdin is sent with it, and -p - (or a bare -p) reads the whole prompt from stdin',
    )
    .option('--output-format <format>', 'print mode output: text, stream-json or json')
    .option('--output-schema <file>', 'print mode: a JSON Schema file the final answer must satisfy')
    .option('--max-turns <n>', 'print mode: stop after n model turns of the main agent (exit 4)')
    .option('--max-budget-usd <usd>', 'print mode: stop once the run has cost more than this (exit 5)')
    .option('--timeout <duration>', 'print mode: stop after this long, e.g. 90s, 10m, 1h (exit 124)')
    .option('-y, --yolo', 'approve every regular tool call (sensitive files and paths outside the workspace still ask)')
    .option(
      '--auto',
      'auto permission mode: never ask; sensitive files and paths outside the workspace are refused unless a rule allows them',
    )
    .option('--plan', 'start the new session in plan mode')
    .option(
      '--agent <name>',
      "main agent for a new session (built in: agent, browser; or a custom agent file's name)",
      collect,
    )
    .option('--browser', 'add the browser tools (tabs, page content, page scripts) to the agent')
    .option(
      '--browser-cdp <url>',
      'attach the browser tools to your running Chrome/Chromium (started with --remote-debugging-port), e.g. http://127.0.0.1:9222; implies --browser',
    )
    .option('--headed', 'show the browser window instead of running it headless (needs a display)')
    .option('--agent-file <path>', 'load this agent Markdown file and make it the main agent', collect)
    .option(
      '--skills-dir <dir>',
      'load skills from this folder instead of the project and user skill folders (repeatable)',
      collect,
    )
    .option('--add-dir <dir>', 'extra workspace folder (repeatable)', collect)
    .option(
      '--trust',
      'print mode: trust the working folder first, recorded as the interactive UI records a yes (project MCP servers, language servers, project memory; see jarvis trust)',
    )
    .addOption(new Option('-r, --resume [id]').hideHelp())
    .addOption(new Option('--yes').hideHelp())
    .addOption(new Option('--auto-approve').hideHelp())
    .addHelpText('after', PRINT_MODE_HELP)
    .usage('[options] [command]')
    .argument('[command]')
    .action(
      async (
        command: string | undefined,
        raw: MainOptions & { resume?: string | true; yes?: boolean; autoApprove?: boolean },
      ) => {
        if (command !== undefined) throw new UsageError(unknownCommandMessage(program, command));
        const options: MainOptions = {
          ...raw,
          session: raw.session ?? raw.resume,
          yolo: raw.yolo || raw.yes || raw.autoApprove,
        };
        const promptGiven = options.prompt !== undefined;
        const conflict = flagConflict(options, promptGiven);
        if (conflict) throw new UsageError(conflict);
        if (options.trust && !(promptGiven || !process.stdin.isTTY))
          throw new UsageError(
            '--trust applies to print mode (-p). In the interactive UI, answer its trust question; ' +
              'or run jarvis trust [path] first.',
          );
        if (promptGiven || !process.stdin.isTTY) {
          const { runPrintCommand } = await import('./printCommand');
          exitCode = await runPrintCommand(options);
          return;
        }
        const { runInteractiveCommand } = await import('./interactiveCommand');
        exitCode = await runInteractiveCommand(options);
      },
    );

  program
    .command('review')
    .description('review the diff between two refs with read-only tools and report findings (docs/ci.md)')
    .option('--base <ref>', 'where the change starts (default: the merge base with origin/HEAD, main or master)')
    .option('--head <ref>', 'where it ends (default: the working tree)')
    .option('--paths <path...>', 'review only these files or folders')
    .option('--focus <text>', 'what to look at most closely, e.g. "security"')
    .option('--output-format <format>', 'text (default), json, markdown or sarif')
    .option('--sarif <file>', 'also write the findings as SARIF 2.1.0 to this file')
    .option('--markdown <file>', 'also write the review as a Markdown comment to this file')
    .option('--fail-on <severity>', 'exit 1 when a finding of this severity or worse exists: error or warning')
    .option('-m, --model <alias>', 'model alias for this review')
    .option('--max-turns <n>', 'stop after n model turns of the reviewer (exit 4)')
    .option('--max-budget-usd <usd>', 'stop once the review has cost more than this (exit 5)')
    .option('--timeout <duration>', 'stop after this long, e.g. 90s, 10m (exit 124)')
    .action(async (opts: import('./review/reviewCommand').ReviewOptions) => {
      const { runReviewCommand } = await import('./review/reviewCommand');
      exitCode = await runReviewCommand(opts);
    });

  // The script behind action.yml (docs/ci.md "The GitHub Action"); run by the Action, not by hand.
  program.command('github-action', { hidden: true }).action(async () => {
    const { runGitHubAction } = await import('./action/actionCommand');
    exitCode = await runGitHubAction();
  });

  program
    .command('acp')
    .description('serve the Agent Client Protocol on stdin/stdout for an editor (Zed, JetBrains; see docs/acp.md)')
    .action(async () => {
      const { runAcpCommand } = await import('./acpCommand');
      exitCode = await runAcpCommand(version);
    });

  // `jarvis serve` and `jarvis web` take the same server flags.
  const serverFlags = (command: Command) =>
    command
      .option('--host <address>', 'address to bind (default 127.0.0.1; others need JARVIS_CODE_PASSWORD)')
      .option('--port <n>', 'port (default 58627, else the next free one up to +100; 0 picks one)')
      .option('--root <folder...>', 'folders sessions may work in (default: the current folder)')
      .option('--approval-expiry <seconds>', 'how long an approval waits for a client (default 86400)')
      .option('--allow-host <name...>', 'also answer to this Host name (a reverse proxy in front)');

  serverFlags(
    program
      .command('serve')
      .description('serve the session API (HTTP + WebSocket) for browsers and programs; see docs/server.md'),
  ).action(async (opts: import('./serveCommand').ServeFlags) => {
    const { runServeCommand } = await import('./serveCommand');
    exitCode = await runServeCommand(opts, version);
  });

  serverFlags(
    program
      .command('web')
      .description('serve the session API with the web UI and open it in the browser; see docs/web.md'),
  )
    .option('--no-open', 'only print the login link; do not open the browser')
    .option('--link', 'start nothing: a new login link from the server already running on --port')
    .action(async (opts: import('./webCommand').WebFlags) => {
      const { runWebCommand } = await import('./webCommand');
      exitCode = await runWebCommand(opts, version);
    });

  // The jarvis-webbridge plugin's MCP server (docs/plugins-official.md); started by the plugin, not by hand.
  program
    .command('webbridge-mcp', { hidden: true })
    .option('--cdp-url <url>', 'attach over CDP to this browser instead of the WebBridge extension')
    .action(async (opts: import('./webbridgeCommand').WebbridgeOptions) => {
      const { runWebbridgeMcp } = await import('./webbridgeCommand');
      exitCode = await runWebbridgeMcp(version, opts);
    });

  program
    .command('webbridge-pair')
    .description('print the port and token that pair the Jarvis WebBridge browser extension (docs/plugins-official.md)')
    .option('--new', 'make a new token; an extension paired with the old one must pair again')
    .action(async (opts: { new?: boolean }) => {
      const { runWebbridgePair } = await import('./webbridgeCommand');
      exitCode = runWebbridgePair(opts);
    });

  program
    .command('trust')
    .description(
      'trust a folder (default: the current one) as the interactive UI does: its project MCP servers, language servers and project memory are used',
    )
    .argument('[path]', 'the folder (default: the current one)')
    .option('--revoke', 'record the folder as not trusted')
    .action(async (path: string | undefined, opts: { revoke?: boolean }) => {
      const { runTrustCommand } = await import('./trustCommand');
      exitCode = runTrustCommand(path, opts);
    });

  program
    .command('doctor')
    .description('validate config.toml and tui.toml without changing them; `doctor libraries` tries each library')
    .argument('[target]', 'config, tui or libraries')
    .argument('[path]', 'validate this file instead of the default one')
    .option('--online', 'also contact the model endpoint, start each MCP server and run ripgrep and Chromium')
    .action(async (target: string | undefined, path: string | undefined, opts: { online?: boolean }) => {
      const { runDoctorCommand } = await import('./doctorCommand');
      exitCode = await runDoctorCommand(target, path, opts.online === true);
    });

  const sessions = program
    .command('sessions')
    .description("list this folder's sessions (id, updated, turns, model, title); `sessions show <id>` for one")
    .option('--json', 'print them as JSON')
    .option('--all', 'the sessions of every folder')
    .action(async (opts: { json?: boolean; all?: boolean }) => {
      const { runSessionsList } = await import('./sessionsCommand');
      exitCode = runSessionsList(opts);
    });
  sessions
    .command('show')
    .description('one session: folder, model, dates, turns and its prompts')
    .argument('<id>', 'a session id or a unique prefix')
    .option('--json', 'print it as JSON')
    .action(async (id: string, opts: { json?: boolean }) => {
      const { runSessionsShow } = await import('./sessionsCommand');
      exitCode = runSessionsShow(id, opts);
    });

  program
    .command('export')
    .description('write a ZIP of a session folder (default: the latest session of this folder) plus the global log')
    .argument('[sessionId]', 'the session to export (an id or a unique prefix)')
    .option('-o, --output <path>', 'where to write the archive (a file, or a folder for the default name)')
    .option('-y, --yes', 'do not ask before exporting the latest session of this folder')
    .option('--no-include-global-log', 'leave the global log out of the archive')
    .action(
      async (sessionId: string | undefined, opts: { output?: string; yes?: boolean; includeGlobalLog: boolean }) => {
        const { runExportCommand } = await import('./exportCommand');
        exitCode = await runExportCommand(sessionId, opts);
      },
    );

  program
    .command('rewind')
    .description(
      'put the conversation and/or the files back to before a prompt (default: the latest session of this folder, the last prompt, both)',
    )
    .option('-S, --session <id>', 'the session to rewind (an id or a unique prefix)')
    .option('-c, --continue', 'the most recent session of this folder (the default)')
    .option('--turns <n>', 'how many prompts to go back (default 1)')
    .option('--files-only', 'restore the files, keep the conversation')
    .option('--conversation-only', 'withdraw the prompts, leave the files (as /undo does)')
    .option(
      '--add-dir <dir>',
      'a folder the session worked in besides this one: files there may be restored (repeatable)',
      collect,
    )
    .option(
      '--overwrite',
      'also restore files changed outside the agent since it wrote them (their bytes are kept in the session)',
    )
    .action(async (opts: import('./rewindCommand').RewindCommandOptions) => {
      const { runRewindCommand } = await import('./rewindCommand');
      exitCode = await runRewindCommand(opts);
    });

  program
    .command('policy')
    .description('check what the permission rules decide')
    .command('test')
    .description(
      'print the decision for a tool call, the rule or policy that decides it, and for Bash the parsed commands (exit 0 allow, 3 ask, 4 deny)',
    )
    .argument('<call>', "a call as rules see it: 'Bash(git push)', 'Read(src/a.ts)', 'WebSearch'")
    .addOption(
      new Option('--mode <mode>', 'permission mode to decide in (default: default_permission_mode)').choices([
        'manual',
        'yolo',
        'auto',
        'plan',
      ]),
    )
    .option('--add-dir <dir>', 'a folder the session would have added with --add-dir (repeatable)', collect)
    .option('--json', 'print one JSON object instead of text')
    .action(async (call: string, opts: { mode?: PolicyTestMode; json?: boolean; addDir?: string[] }) => {
      const { runPolicyTestCommand } = await import('./policyCommand');
      exitCode = await runPolicyTestCommand(call, opts, {
        cwd: process.cwd(),
        env: process.env,
        out: (t) => process.stdout.write(t),
        err: (t) => process.stderr.write(t),
      });
    });

  const mcp = program.command('mcp').description('manage MCP servers in mcp.json (user or project)');
  mcp
    .command('list')
    .description('list the configured MCP servers')
    .option('--json', 'print them as JSON')
    .action(async (opts: { json?: boolean }) => {
      const { runMcpList } = await import('./mcpCommand');
      exitCode = await runMcpList(opts);
    });
  mcp
    .command('add')
    .description('add a server: jarvis mcp add <name> -- <command> [args…]  or  jarvis mcp add <name> <url>')
    .argument('<name>', 'server name (letters, digits, _ - .)')
    .argument('<target...>', 'the command and its arguments, or the server URL')
    .option('-s, --scope <scope>', 'user (default) or project', 'user')
    .option('-t, --transport <kind>', 'stdio, http or sse (default: http for a URL, else stdio)')
    .option('-e, --env <NAME=VALUE>', 'environment variable for a stdio server (repeatable)', collect)
    .option('-H, --header <Name: value>', 'HTTP header for a remote server (repeatable)', collect)
    .option('--bearer-token-env-var <NAME>', 'send the token in this environment variable as a bearer token')
    .option('--cwd <dir>', 'working directory of a stdio server')
    .option('--startup-timeout-ms <ms>', 'how long the server may take to start')
    .option('--tool-timeout-ms <ms>', 'how long one tool call may take')
    .action(async (name: string, target: string[], opts: import('./mcpCommand').McpAddOptions) => {
      const { runMcpAdd } = await import('./mcpCommand');
      exitCode = runMcpAdd(name, target, opts);
    });
  mcp
    .command('remove')
    .description('remove a server from mcp.json')
    .argument('<name>')
    .option('-s, --scope <scope>', 'user or project (default: whichever has it)')
    .action(async (name: string, opts: { scope?: string }) => {
      const { runMcpRemove } = await import('./mcpCommand');
      exitCode = runMcpRemove(name, opts);
    });
  mcp
    .command('login')
    .description('sign in to a remote MCP server that uses OAuth (opens the browser; the address is also printed)')
    .argument('<name>')
    .action(async (name: string) => {
      const { runMcpLogin } = await import('./mcpCommand');
      exitCode = await runMcpLogin(name);
    });

  const plugin = program
    .command('plugin')
    .description('manage plugins: list, install, info, enable, disable, remove, reload, marketplace (docs/plugins.md)');
  const pluginAction = (action: import('./pluginCommand').PluginAction, description: string, arg?: string) => {
    const command = plugin.command(action).description(description).option('--json', 'print JSON instead of text');
    if (arg) command.argument(arg);
    if (action === 'install')
      command.option('--tier <tier>', 'record the marketplace tier: official, curated or third-party');
    command.action(async (...args: unknown[]) => {
      const { runPluginCommand } = await import('./pluginCommand');
      const value = arg ? (args[0] as string) : undefined;
      exitCode = await runPluginCommand(action, value, args[arg ? 1 : 0] as { json?: boolean; tier?: string });
    });
  };
  pluginAction('list', 'list the installed plugins');
  pluginAction(
    'install',
    'install from a local folder, a zip URL or a GitHub URL (copied to plugins/managed/<id>/)',
    '<path-or-url>',
  );
  pluginAction('info', "show a plugin's details and diagnostics", '<id>');
  pluginAction('enable', 'enable a plugin (new sessions)', '<id>');
  pluginAction('disable', 'disable a plugin (new sessions)', '<id>');
  pluginAction('remove', "remove a plugin's install record (its files stay on disk)", '<id>');
  pluginAction('reload', 're-read installed.json and every plugin manifest, and list the result');
  plugin
    .command('marketplace')
    .description('list a marketplace: the default one, or a marketplace JSON file, folder or URL')
    .argument('[source]')
    .option('--json', 'print JSON instead of text')
    .action(async (source: string | undefined, opts: { json?: boolean }) => {
      const { runPluginMarketplaceCommand } = await import('./pluginMarketplaceCommand');
      exitCode = await runPluginMarketplaceCommand(source, opts);
    });

  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 2;
    if (e instanceof UsageError) {
      process.stderr.write(`jarvis: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
}
