// `jarvis doctor --online` (docs/configuration.md, "jarvis doctor"): the checks that contact something — a one-token
// request to the model endpoint with the configured key, each MCP server started and its tools listed, ripgrep and
// Chromium run once. Offline, the section only says what it did not cover, so "All checks passed" is not misread.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { McpServerConnection } from '../ext/mcp/mcpConnection';
import { createModelClient } from '../llm/createModelClient';
import { findChromium } from '../platform/browser/findChromium';
import { defaultRipgrep } from '../platform/ripgrep';
import { describeMcpTarget, type McpServerConfig } from '../store/mcpConfig';
import type { ResolvedModel } from '../types/models';
import { changedFilesOf } from '../engine/runtime/startup/mcpTrustNotice';
import type { DoctorContext, DoctorSection, DoctorSectionProvider } from './doctorSections';
import { loadExtensions, loadStartup, StartupError } from '../engine/runtime/startup/startup';

declare const __JARVIS_VERSION__: string;

const run = promisify(execFile);
/** Bounds every probe: a model endpoint that never answers, a binary that hangs. */
const MODEL_PROBE_TIMEOUT_MS = 30_000;
/** The SDK's own time-out comes this much after the probe's deadline, so the deadline is what fires. */
const SDK_TIMEOUT_MARGIN_MS = 5_000;
const VERSION_PROBE_TIMEOUT_MS = 20_000;
/** Tools named per MCP server in the report; the count is always given. */
const TOOLS_SHOWN = 8;

export const OFFLINE_NOTE =
  'not run: this check read the configuration files only; it did not contact the model endpoint, start MCP ' +
  'servers or run ripgrep and Chromium (jarvis doctor --online does)';

interface Probe {
  ok: boolean;
  line: string;
}

const ok = (line: string): Probe => ({ ok: true, line: `✓ ${line}` });
const failed = (line: string): Probe => ({ ok: false, line: `✗ ${line}` });
const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * How long the model probe waits, and the words that name that limit when it is reached: the session's
 * `[loop_control] idle_timeout_s`, at most MODEL_PROBE_TIMEOUT_MS.
 */
export function modelProbeLimit(idleTimeoutMs: number): { ms: number; named: string } {
  const s = (ms: number) => `${Math.round(ms / 1000)} s`;
  if (idleTimeoutMs > 0 && idleTimeoutMs <= MODEL_PROBE_TIMEOUT_MS)
    return { ms: idleTimeoutMs, named: `[loop_control] idle_timeout_s = ${s(idleTimeoutMs)}` };
  const session = idleTimeoutMs > 0 ? `${s(idleTimeoutMs)}` : 'with no limit (0)';
  return {
    ms: MODEL_PROBE_TIMEOUT_MS,
    named: `jarvis doctor's probe limit of ${s(MODEL_PROBE_TIMEOUT_MS)}; a session waits [loop_control] idle_timeout_s = ${session}`,
  };
}

/** One request for one output token: the endpoint, the key and the model name all have to be right for it. */
export async function probeModel(model: ResolvedModel, env: NodeJS.ProcessEnv, idleTimeoutMs: number): Promise<Probe> {
  const where = `model "${model.model}" at ${model.baseUrl ?? 'the provider default'}`;
  const limit = modelProbeLimit(idleTimeoutMs);
  // Our own deadline, so that the failure names it: the SDK's time-out is set later and never fires first.
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), limit.ms);
  try {
    const client = await createModelClient(model, { env, timeoutMs: limit.ms + SDK_TIMEOUT_MARGIN_MS });
    const request = {
      system: 'Answer with one word.',
      messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'ping' }] }],
      tools: [],
      params: { maxOutputTokens: 1 },
    };
    for await (const part of client.stream(request, deadline.signal)) {
      if (part.type === 'finish' || part.type === 'text') break;
    }
    if (deadline.signal.aborted) throw new Error('the probe was stopped');
    return ok(`${where}: answered a one-token request`);
  } catch (e) {
    if (deadline.signal.aborted)
      return failed(
        `${where}: no answer within ${Math.round(limit.ms / 1000)} s (${limit.named}); the request was stopped`,
      );
    return failed(`${where}: ${messageOf(e)}`);
  } finally {
    clearTimeout(timer);
  }
}

/** Starts the server as a session would (its own startup timeout), lists its tools, stops it. */
export async function probeMcpServer(config: McpServerConfig): Promise<Probe> {
  const label = `MCP server "${config.name}" (${config.scope}, ${describeMcpTarget(config)})`;
  if (!config.enabled) return ok(`${label}: disabled, not started`);
  const version = typeof __JARVIS_VERSION__ === 'string' ? __JARVIS_VERSION__ : '0.0.0';
  const connection = new McpServerConnection(config, {
    clientInfo: { name: 'jarvis-doctor', version },
    onToolsChanged: () => undefined,
  });
  try {
    await connection.start();
    if (connection.state !== 'ready') return failed(`${label}: did not start: ${connection.error ?? connection.state}`);
    const names = connection.tools.map((t) => t.name);
    const shown = names.slice(0, TOOLS_SHOWN).join(', ') + (names.length > TOOLS_SHOWN ? ', …' : '');
    return ok(`${label}: started, ${names.length} tool${names.length === 1 ? '' : 's'}${shown ? ` (${shown})` : ''}`);
  } finally {
    await connection.close();
  }
}

async function probeVersion(what: string, path: string): Promise<Probe> {
  try {
    const { stdout } = await run(path, ['--version'], { timeout: VERSION_PROBE_TIMEOUT_MS });
    return ok(`${what} (${path}): ${stdout.split('\n')[0].trim()}`);
  } catch (e) {
    return failed(`${what} (${path}) did not run: ${messageOf(e)}`);
  }
}

export async function probeRipgrep(): Promise<Probe> {
  try {
    const rg = await defaultRipgrep();
    return await probeVersion(`ripgrep from ${rg.source}`, rg.path);
  } catch (e) {
    return failed(`ripgrep: ${messageOf(e)}`);
  }
}

/** Chromium is optional (only the browser tools need it): a missing one is said, not failed. */
export async function probeChromium(env: NodeJS.ProcessEnv): Promise<Probe> {
  const path = findChromium(env);
  if (!path) return ok('Chromium: none on PATH; the browser tools will not start (docs/browser.md)');
  return probeVersion('Chromium', path);
}

async function onlineSection(ctx: DoctorContext): Promise<DoctorSection> {
  const probes: Probe[] = [];
  let startup;
  try {
    startup = loadStartup({}, { nonInteractive: true, env: ctx.env, cwd: ctx.cwd });
    await loadExtensions(startup, {}, ctx.env);
  } catch (e) {
    if (!(e instanceof StartupError)) throw e;
    probes.push(failed(`model and MCP servers not checked: ${e.message.replace(/^jarvis: /, '')}`));
  }
  if (startup) {
    for (const w of startup.warnings) probes.push(ok(`warning: ${w}`));
    probes.push(await probeModel(startup.runtime.model, ctx.env, startup.settings.loop.idleTimeoutMs));
    for (const server of startup.mcp.servers) probes.push(await probeMcpServer(server));
    for (const server of startup.mcp.untrusted)
      probes.push(ok(`MCP server "${server.name}" (project): not started, this workspace is not trusted`));
    for (const server of startup.mcp.changed) {
      const files = changedFilesOf(startup.mcp, server.name).join(', ');
      probes.push(failed(`MCP server "${server.name}" (project): not started, ${files} changed since trusted`));
    }
    if (!startup.mcp.servers.length && !startup.mcp.untrusted.length && !startup.mcp.changed.length)
      probes.push(ok('MCP servers: none configured'));
  }
  probes.push(await probeRipgrep(), await probeChromium(ctx.env));
  const failures = probes.filter((p) => !p.ok).length;
  return {
    title: 'Online checks',
    ok: failures === 0,
    lines: [...probes.map((p) => p.line), ...(failures ? [`${failures} failed (marked ✗ above)`] : [])],
  };
}

export const onlineDoctorProvider: DoctorSectionProvider = async (ctx) =>
  ctx.online ? onlineSection(ctx) : { title: 'Online checks', ok: true, lines: [OFFLINE_NOTE] };
