// `jarvis -p "…"` (or a prompt on stdin): configuration → runtime → print front end → exit code.
import { parseGoalCommand } from '../engine/background/goals';
import { SessionControl } from '../engine/runtime/sessionControl';
import { SessionLockedError } from '../store/sessionLock';
import { makePrintRenderer, type PrintFormat } from '../print/printMode';
import { LinkInTheWayError } from '../store/privateFiles';
import {
  EXIT_FAILURE,
  EXIT_INTERRUPTED,
  EXIT_USAGE,
  exitCodeOfVerdict,
  reportOf,
  runHeadless,
} from '../engine/runtime/headlessRun';
import { initEvent } from '../engine/runtime/streamJson';
import { PrintResultRecorder } from '../print/printResult';
import { openRunControls } from './printRun';
import type { RunControls } from '../engine/runtime/runControls';
import type { EngineEvent } from '../engine/loop/events';
import { contextWindow, estimateToolSchemaTokens } from '../engine/context/context';
import { estimateTokens } from '../llm/tokens';
import { toolSchemaForModel } from '../tools/defineTool';
import { fitPromptToWindow, resolvePrintPrompt } from './printInput';
import { mcpFailureText, startMcpServers } from '../ext/mcp/mcpSession';
import { mcpToolDeferral } from '../engine/loop/deferredTools';
import type { MainOptions } from './program';
import { installLastResort, onLastResort } from './lastResort';
import { jarvisHome } from '../store/paths';
import { parseSkillCommand } from '../engine/delegation/skills';
import { attachMentions, runtimeAttachmentEnv } from '../engine/runtime/promptAttachments';
import { parsePluginCommand } from '../ext/plugins/pluginCommands';
import { prepareParsedCommand } from '../engine/delegation/commandExpansion';
import { knownSlashNames, unknownSlashName, type SlashNameSources } from '../engine/delegation/slashNames';
import { namesMcpServer, runMcpPromptCommand } from '../ext/mcp/mcpPrompts';
import { parseFlowCommand, runFlow } from '../engine/delegation/flowRunner';
import { loadExtensions, loadStartup, StartupError } from '../engine/runtime/startup/startup';

declare const __JARVIS_VERSION__: string;

/** Print mode's own command: `/goal <objective>` (the other /goal forms are refused above). */
const PRINT_COMMANDS = ['goal'];

/**
 * The message for a prompt that starts with a `/name` nothing of this session has, else undefined. A command of
 * the interactive UI is named as one (its list is loaded only then: print mode does not start the UI).
 */
async function unknownPrintCommand(
  prompt: string,
  runtime: { skills?: SlashNameSources['skills']; plugins?: SlashNameSources['plugins'] },
): Promise<string | undefined> {
  const known = knownSlashNames({ frontEnd: PRINT_COMMANDS, skills: runtime.skills, plugins: runtime.plugins });
  const hint = 'Print mode runs /goal <objective>, skills (/skill:<name>) and plugin commands (/<plugin>:<command>).';
  const unknown = unknownSlashName(prompt, known, hint);
  if (!unknown) return undefined;
  const { findCommand } = await import('../ui/slashCommands');
  const ui = findCommand(unknown.name);
  if (ui) return `/${ui.name} is a command of the interactive UI (jarvis without -p); nothing was sent. ${hint}`;
  return unknown.message;
}

type Sink = { write(s: string): void };

export async function runPrintCommand(options: MainOptions): Promise<number> {
  const stdout = { write: (s: string) => void process.stdout.write(s) };
  const stderr = { write: (s: string) => void process.stderr.write(s) };
  const format: PrintFormat =
    options.outputFormat === 'stream-json' || options.outputFormat === 'json' ? options.outputFormat : 'text';
  // stream-json and json end with one result object, whatever ended the run (docs/print-mode.md) — an
  // unexpected error that escapes to the last resort included: it writes the result on its way out.
  const report = new PrintResultRecorder(format, stdout);
  installLastResort(jarvisHome(process.env));
  let finished = false;
  const finish = (code: number) => (finished ? code : ((finished = true), report.finish(code)));
  const lastWords = onLastResort((message) => {
    report.error(message);
    finish(EXIT_FAILURE);
  });
  const fail = (message: string, code: number): number => {
    stderr.write(`${message}\n`);
    report.error(message);
    return code;
  };
  // --output-schema and the caps are checked before anything starts; --timeout counts from here.
  const run = await openRunControls(options, Date.now(), (text) => stderr.write(`warning: ${text}\n`));
  if ('error' in run) {
    lastWords();
    return finish(fail(run.error, EXIT_USAGE));
  }
  try {
    // An error thrown out of the body keeps the last words registered: it reaches the last resort next.
    const code = await runPrintBody(options, format, report, run.controls, stdout, stderr);
    lastWords();
    report.runEnded(reportOf(run.controls, code));
    const exit = exitCodeOfVerdict(code, run.controls);
    // Text mode with a schema: stdout is the accepted answer alone, as JSON (the transcript went to stderr).
    const answer = run.controls.structuredOutput();
    if (format === 'text' && answer && exit === 0) stdout.write(`${JSON.stringify(answer.value, null, 2)}\n`);
    return finish(exit);
  } finally {
    run.controls.close();
  }
}

async function runPrintBody(
  options: MainOptions,
  format: PrintFormat,
  report: PrintResultRecorder,
  run: RunControls,
  stdout: Sink,
  stderr: Sink,
): Promise<number> {
  /** A failure before or around the turn: on stderr, and as an event and in the result for scripts. */
  const fail = (message: string, code = EXIT_FAILURE): number => {
    stderr.write(`${message}\n`);
    report.error(message);
    return code;
  };
  const input = await resolvePrintPrompt({ prompt: options.prompt, stdin: process.stdin, stderr });
  if (!input.ok) {
    return fail(input.message);
  }
  let prompt = input.prompt;
  // docs/print-mode.md: only the create form of /goal runs in print mode.
  const goalCommand = parseGoalCommand(prompt);
  if (goalCommand && goalCommand.kind !== 'create') {
    const why =
      goalCommand.kind === 'invalid'
        ? goalCommand.message
        : `/goal ${goalCommand.kind.replace('_', ' ')} is only available in the interactive UI.`;
    return fail(`jarvis: ${why} Print mode accepts /goal <objective>.`);
  }
  let startup;
  try {
    startup = loadStartup(options, { nonInteractive: true });
    await loadExtensions(startup, options);
  } catch (e) {
    if (e instanceof StartupError) {
      return fail(e.message);
    }
    throw e;
  }
  for (const n of startup.notes) stderr.write(`info: ${n}\n`);
  for (const w of startup.warnings) stderr.write(`warning: ${w}\n`);
  // `/<plugin>:<command> [args]`: the command's prompt is sent (docs/plugins.md).
  const plugins = startup.runtime.plugins;
  const pluginCommand = goalCommand || !plugins ? undefined : parsePluginCommand(prompt, plugins.commands, plugins.ids);
  // A name that names nothing (an unknown plugin command or skill) is a usage error: exit 2, nothing sent.
  if (pluginCommand && !pluginCommand.ok) {
    return fail(`jarvis: ${pluginCommand.message}`, EXIT_USAGE);
  }
  // `/skill:<name> [args]` (or `/<name>` for a skill): the skill's instructions become the prompt.
  const skillCommand =
    goalCommand || pluginCommand
      ? undefined
      : parseSkillCommand(prompt, startup.runtime.skills, (name) => name === 'goal');
  if (skillCommand && !skillCommand.ok) {
    return fail(`jarvis: ${skillCommand.message}`, EXIT_USAGE);
  }
  // `/flow:<name>`: a flow skill's steps, one turn each.
  const flowCommand = goalCommand || pluginCommand ? undefined : parseFlowCommand(prompt, startup.runtime.skills);
  if (flowCommand && !flowCommand.ok) return fail(`jarvis: ${flowCommand.message}`, EXIT_USAGE);
  // `/mcp__<server>__<prompt>` of a configured server is looked up once the servers have started (below).
  const mcpPromptTyped =
    !goalCommand &&
    !pluginCommand &&
    !skillCommand &&
    namesMcpServer(
      prompt,
      startup.mcp.servers.map((s) => s.name),
    );
  // Any other `/name` that names nothing is refused before anything is sent (docs/print-mode.md).
  const unknown =
    goalCommand || pluginCommand || skillCommand || flowCommand || mcpPromptTyped
      ? undefined
      : await unknownPrintCommand(prompt, startup.runtime);
  if (unknown) return fail(`jarvis: ${unknown}`, EXIT_USAGE);
  // With --output-schema, text mode keeps stdout for the answer's JSON: the transcript goes to stderr.
  const writer = makePrintRenderer(format, run.output && format === 'text' ? stderr : stdout, stderr);
  const render = (event: EngineEvent) => {
    run.observe(event);
    report.observe(event);
    writer(event);
  };
  // Started before the session opens; the first model request waits for them (docs/mcp.md).
  const mcp = startMcpServers(startup.mcp.servers, {
    home: startup.home,
    clientName: startup.settings.identity.slug,
    version: typeof __JARVIS_VERSION__ === 'string' ? __JARVIS_VERSION__ : '0.0.0',
    onFailure: (server, error) => stderr.write(`warning: ${mcpFailureText(server, error)}\n`),
    onWarning: (text) => stderr.write(`warning: ${text}\n`),
    deferred: mcpToolDeferral(startup.runtime.deferral),
    cwd: startup.cwd,
  });
  // Until the turn's own handler is in place, Ctrl-C stops the servers started so far and exits.
  const early = () => {
    mcp?.killNow();
    stderr.write('\ninterrupted while starting\n');
    process.exit(EXIT_INTERRUPTED);
  };
  process.on('SIGINT', early);
  // An MCP server's prompt: its text from the server, once started (ext/mcp/mcpPrompts.ts).
  const mcpPrompt = mcpPromptTyped ? await runMcpPromptCommand(prompt, mcp) : undefined;
  if (mcpPromptTyped && !mcpPrompt?.ok) {
    process.off('SIGINT', early);
    await mcp?.close();
    const why = mcpPrompt?.message ?? (await unknownPrintCommand(prompt, startup.runtime));
    return fail(`jarvis: ${why ?? 'no such MCP prompt'}`, EXIT_USAGE);
  }
  const control = new SessionControl({
    // docs/print-mode.md: print mode runs in auto mode; the run's schema and caps apply to the main agent.
    base: { ...startup.runtime, mcp, mode: 'auto', modeOverride: true, mainAgent: run.mainAgent },
    nonInteractive: true,
    notificationDelivery: 'collect',
    onEvent: render,
  });
  let runtime;
  try {
    runtime = control.ensure();
  } catch (e) {
    await mcp?.close(); // its servers are child processes: left open, they would keep this process alive
    process.off('SIGINT', early);
    if (!(e instanceof SessionLockedError) && !(e instanceof LinkInTheWayError)) throw e;
    return fail(`jarvis: ${e.message}`);
  }
  // What the first request carries: the offered tools, not those waiting for ToolSearch (whose schemas are then never
  // built before the request — docs/FEATURES.md, "Start-up time against Codex").
  const frameTokens =
    estimateTokens(runtime.session.state.systemPrompt ?? '') +
    estimateToolSchemaTokens(runtime.offered.list().map(toolSchemaForModel));
  const fitted = fitPromptToWindow(
    input,
    { window: contextWindow(startup.runtime.model), name: startup.runtime.model.model, frameTokens },
    stderr,
  );
  if (!fitted.ok) {
    await control.close();
    await mcp?.close();
    process.off('SIGINT', early);
    return fail(fitted.message);
  }
  prompt = fitted.prompt;
  run.attach({ agent: runtime.agent, tasks: runtime.tasks });
  report.session(runtime.session.id, startup.runtime.model.model);
  if (format === 'stream-json')
    stdout.write(`${JSON.stringify(initEvent(runtime.session.id, startup.runtime.model.model, startup.cwd))}\n`);
  // `@path` attaches the file as in the UI; print mode runs in auto mode, so only workspace files that are no secrets attach.
  const attached =
    goalCommand || !prompt.includes('@')
      ? undefined
      : await attachMentions(prompt, runtimeAttachmentEnv(runtime, startup.runtime.rules, startup.cwd));
  for (const n of attached?.notices ?? []) stderr.write(`warning: ${n}\n`);
  const bg = startup.settings.background;
  for (const w of runtime.warnings) stderr.write(`warning: ${w}\n`);
  if (startup.runtime.resume) stderr.write(`• resuming session ${runtime.session.id}\n`);

  let interrupted = false;
  const stop = new AbortController();
  const onSigint = () => {
    if (interrupted) {
      // Forced: nothing async will run any more, so stop the tasks' process groups right here.
      runtime.tasks.killAllNow('Killed: Ctrl-C pressed twice in print mode');
      mcp?.killNow();
      stderr.write('interrupted again: background tasks and MCP servers killed, exiting\n');
      process.exit(EXIT_INTERRUPTED);
    }
    interrupted = true;
    stderr.write('\ninterrupted: stopping the turn and every background task (press Ctrl-C again to force)\n');
    stop.abort();
    runtime.agent.cancel(true);
  };
  process.on('SIGINT', onSigint);
  process.off('SIGINT', early);
  try {
    const background = {
      watcher: runtime.notifications,
      mode: bg.printBackgroundMode,
      waitCeilingMs: bg.printWaitCeilingS * 1000,
      maxTurns: bg.printMaxTurns,
    };
    const goal =
      goalCommand?.kind === 'create'
        ? {
            start: () => {
              const r = runtime.goals.start(goalCommand.objective);
              return r.ok ? undefined : r.message;
            },
            status: () => runtime.goals.current()?.status,
            reason: () => runtime.goals.current()?.reason,
          }
        : undefined;
    const scheduled = {
      pendingOneShots: () => runtime.cron.pendingOneShots(),
      recurringJobs: () => runtime.cron.recurringJobs(),
      nextChange: (signal: AbortSignal) => runtime.cron.nextChange(signal),
      sessionId: () => runtime.session.id,
    };
    // A command's `!`cmd` lines run now, before sending (engine/delegation/commandExpansion.ts).
    const command = pluginCommand ?? skillCommand;
    const warn = (text: string) => stderr.write(`warning: ${text}\n`);
    const ready = command?.ok
      ? await prepareParsedCommand(runtime.agent, command, { warn, signal: stop.signal })
      : mcpPrompt?.ok
        ? { text: mcpPrompt.text, preApproved: [] }
        : undefined;
    // Ctrl-C while its `!`cmd` lines ran: they were stopped, and nothing is sent (docs/plugins.md).
    if (ready && stop.signal.aborted) {
      stderr.write('interrupted: the command was not sent\n');
      return EXIT_INTERRUPTED;
    }
    return await runHeadless(
      runtime.agent,
      {
        prompt,
        promptContent: ready?.text,
        preApproved: ready?.preApproved,
        attachments: attached?.parts,
        ...(flowCommand?.ok
          ? { flow: () => runFlow(runtime.agent, flowCommand.skill.name, flowCommand.flow, { signal: stop.signal }) }
          : {}),
        notify: stderr,
        background,
        goal,
        scheduled,
        stop: AbortSignal.any([stop.signal, run.signal]),
      },
      () => interrupted,
    );
  } finally {
    // The handler stays while things stop: a second Ctrl-C now still kills them all before exiting.
    // A cap stops background work at once, as Ctrl-C does (docs/print-mode.md "Caps").
    await control.close(interrupted || run.signal.aborted);
    await mcp?.close();
    process.off('SIGINT', onSigint);
  }
}
