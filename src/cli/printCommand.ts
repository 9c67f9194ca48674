// `jarvis -p "…"` (or a prompt on stdin): configuration → runtime → print front end → exit code.
import { parseGoalCommand } from '../engine/background/goals';
import { SessionControl } from '../engine/runtime/sessionControl';
import { SessionLockedError } from '../store/sessionLock';
import { EXIT_FAILURE, EXIT_INTERRUPTED, makePrintRenderer, runPrint, type PrintFormat } from '../print/printMode';
import { initEvent, PrintResultRecorder } from '../print/printResult';
import type { EngineEvent } from '../engine/loop/events';
import { contextWindow, estimateToolSchemaTokens } from '../engine/context/context';
import { estimateTokens } from '../llm/tokens';
import { toolSchemaForModel } from '../tools/defineTool';
import { fitPromptToWindow, resolvePrintPrompt } from './printInput';
import { mcpFailureText, startMcpServers } from '../ext/mcp/mcpSession';
import { mcpToolDeferral } from '../engine/loop/deferredTools';
import type { MainOptions } from './program';
import { installLastResort } from './lastResort';
import { parseSkillCommand } from '../engine/delegation/skills';
import { attachMentions, runtimeAttachmentEnv } from '../engine/runtime/promptAttachments';
import { parsePluginCommand } from '../ext/plugins/pluginCommands';
import { prepareParsedCommand } from '../engine/delegation/commandExpansion';
import { loadExtensions, loadStartup, StartupError } from './startup';

declare const __JARVIS_VERSION__: string;

type Sink = { write(s: string): void };

export async function runPrintCommand(options: MainOptions): Promise<number> {
  const stdout = { write: (s: string) => void process.stdout.write(s) };
  const stderr = { write: (s: string) => void process.stderr.write(s) };
  const format: PrintFormat =
    options.outputFormat === 'stream-json' || options.outputFormat === 'json' ? options.outputFormat : 'text';
  // stream-json and json end with one result object, whatever ended the run (docs/print-mode.md).
  const report = new PrintResultRecorder(format, stdout);
  return report.finish(await runPrintBody(options, format, report, stdout, stderr));
}

async function runPrintBody(
  options: MainOptions,
  format: PrintFormat,
  report: PrintResultRecorder,
  stdout: Sink,
  stderr: Sink,
): Promise<number> {
  /** A failure before or around the turn: on stderr, and as an event and in the result for scripts. */
  const fail = (message: string): number => {
    stderr.write(`${message}\n`);
    report.error(message);
    return EXIT_FAILURE;
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
  installLastResort(startup.home);
  for (const n of startup.notes) stderr.write(`info: ${n}\n`);
  for (const w of startup.warnings) stderr.write(`warning: ${w}\n`);
  // `/<plugin>:<command> [args]`: the command's prompt is sent (docs/plugins.md).
  const plugins = startup.runtime.plugins;
  const pluginCommand = goalCommand || !plugins ? undefined : parsePluginCommand(prompt, plugins.commands, plugins.ids);
  if (pluginCommand && !pluginCommand.ok) {
    return fail(`jarvis: ${pluginCommand.message}`);
  }
  // `/skill:<name> [args]` (or `/<name>` for a skill): the skill's instructions become the prompt.
  const skillCommand =
    goalCommand || pluginCommand
      ? undefined
      : parseSkillCommand(prompt, startup.runtime.skills, (name) => name === 'goal');
  if (skillCommand && !skillCommand.ok) {
    return fail(`jarvis: ${skillCommand.message}`);
  }
  const writer = makePrintRenderer(format, stdout, stderr);
  const render = (event: EngineEvent) => {
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
  });
  // Until the turn's own handler is in place, Ctrl-C stops the servers started so far and exits.
  const early = () => {
    mcp?.killNow();
    stderr.write('\ninterrupted while starting\n');
    process.exit(EXIT_INTERRUPTED);
  };
  process.on('SIGINT', early);
  const control = new SessionControl({
    base: { ...startup.runtime, mcp, mode: 'auto', modeOverride: true }, // docs/print-mode.md: print mode runs in auto mode
    nonInteractive: true,
    notificationDelivery: 'collect',
    onEvent: render,
  });
  let runtime;
  try {
    runtime = control.ensure();
  } catch (e) {
    process.off('SIGINT', early);
    await mcp?.close(); // its servers are child processes: left open, they would keep this process alive
    if (!(e instanceof SessionLockedError)) throw e;
    return fail(`jarvis: ${e.message}`);
  }
  const frameTokens =
    estimateTokens(runtime.session.state.systemPrompt ?? '') +
    estimateToolSchemaTokens(runtime.tools.list().map(toolSchemaForModel));
  const fitted = fitPromptToWindow(
    input,
    { window: contextWindow(startup.runtime.model), name: startup.runtime.model.model, frameTokens },
    stderr,
  );
  if (!fitted.ok) {
    process.off('SIGINT', early);
    await control.close();
    await mcp?.close();
    return fail(fitted.message);
  }
  prompt = fitted.prompt;
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
      : undefined;
    // Ctrl-C while its `!`cmd` lines ran: they were stopped, and nothing is sent (docs/plugins.md).
    if (ready && stop.signal.aborted) {
      stderr.write('interrupted: the command was not sent\n');
      return EXIT_INTERRUPTED;
    }
    return await runPrint(
      runtime.agent,
      {
        prompt,
        promptContent: ready?.text,
        preApproved: ready?.preApproved,
        attachments: attached?.parts,
        outputFormat: format,
        stdout,
        stderr,
        background,
        goal,
        scheduled,
        stop: stop.signal,
      },
      () => interrupted,
    );
  } finally {
    process.off('SIGINT', onSigint);
    await control.close(interrupted);
    await mcp?.close();
  }
}
