// Builds a real runtime (session on disk, journal, agent, approvals) around a scripted model.
import { mkdtempSync, mkdirSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect } from 'vitest';
import { z } from 'zod';
import type { ApprovalAnswer, ApprovalPort, ApprovalRequest, PermissionRule } from '../../src/engine/policy/approvals';
import type { EngineEvent } from '../../src/engine/loop/events';
import type { PermissionMode } from '../../src/engine/session/records';
import { DEFAULT_MEMORY_SETTINGS } from '../../src/engine/context/memoryRecall';
import { openRuntime, type Runtime, type RuntimeOptions } from '../../src/engine/runtime/runtime';
import type { TurnExtension } from '../../src/engine/loop/loop';
import type { SessionLocation } from '../../src/store/sessionStore';
import { Session } from '../../src/engine/session/session';
import { ScriptedClient, type ScriptedResponse } from '../../src/llm/scriptedClient';
import type { ResolvedModel } from '../../src/llm/types';
import { defineTool, type Tool } from '../../src/tools/defineTool';

export const testModel: ResolvedModel = {
  alias: 'test',
  providerName: 'test',
  providerType: 'openai',
  model: 'scripted',
  apiKey: 'k',
  maxContextSize: 100_000,
  capabilities: ['tool_use'],
  displayName: 'scripted',
};

export interface EngineHarness {
  home: string;
  cwd: string;
  client: ScriptedClient;
  runtime: Runtime;
  events: EngineEvent[];
  approvals: ApprovalRequest[];
  eventsOf<T extends EngineEvent['type']>(type: T): Array<Extract<EngineEvent, { type: T }>>;
  /** Replays the journal from disk and checks the rebuilt state equals the live one. */
  expectReplayIdentical(): void;
}

const created: EngineHarness[] = [];
/** Engines whose session was reopened by a later engine: their in-memory state is stale by design. */
const superseded = new WeakSet<EngineHarness>();

/**
 * DESIGN §5: every engine test also replays its journal and checks the rebuilt state is identical.
 * Call once at the top of a test file: after each test, every engine it made is replayed, compared
 * and closed.
 */
export function verifyEnginesAfterEach(): void {
  afterEach(async () => {
    for (const engine of created.splice(0)) {
      if (!superseded.has(engine)) engine.expectReplayIdentical();
      await engine.runtime.close({ force: true });
    }
  });
}

/** For a test that deliberately writes one journal from two engines and checks replay itself. */
export function skipReplayCheck(...engines: EngineHarness[]): void {
  for (const engine of engines) superseded.add(engine);
}

/** Submits a prompt and waits for the turn (and any it triggers) to end; returns the first outcome. */
export async function runPrompt(engine: EngineHarness, text: string) {
  engine.runtime.agent.submit({ kind: 'prompt', text });
  return (await engine.runtime.agent.idle())[0];
}

export function makeEngine(opts: {
  responses: ScriptedResponse[] | ConstructorParameters<typeof ScriptedClient>[0];
  tools?: Tool[];
  toolSwitch?: { enabled: string[]; disabled: string[] };
  mode?: PermissionMode;
  rules?: PermissionRule[];
  answer?: (req: ApprovalRequest) => ApprovalAnswer | Promise<ApprovalAnswer>;
  maxSteps?: number;
  maxAttempts?: number;
  nonInteractive?: boolean;
  /** Model overrides (e.g. a small window for compaction tests). */
  model?: Partial<ResolvedModel>;
  compaction?: RuntimeOptions['compaction'];
  extensions?: TurnExtension[];
  /** Resume this session (in `dirs`) instead of creating one. */
  resume?: SessionLocation;
  dirs?: { home: string; cwd: string };
  /** Plan reviews and questions (src/engine/delegation/interactions.ts). */
  interactionPort?: RuntimeOptions['interactionPort'];
  planMode?: boolean;
  goal?: RuntimeOptions['goal'];
  /** Hooks and extensions registered before the session starts. */
  gateHandlers?: RuntimeOptions['gateHandlers'];
  /** `[[hooks]]` commands (docs/hooks.md). */
  hooks?: RuntimeOptions['hooks'];
  /** MCP servers whose tools join the registry (docs/mcp.md). */
  mcp?: RuntimeOptions['mcp'];
  /** `[tools] pinned` / `deferred` (docs/tools.md, "Deferred tools"). */
  deferral?: RuntimeOptions['deferral'];
  skills?: RuntimeOptions['skills'];
  agents?: RuntimeOptions['agents'];
  delegation?: RuntimeOptions['delegation'];
  agentProfile?: RuntimeOptions['agentProfile'];
  /** `[rewind]` copies of files before writes (default: on, 10 MiB cap). */
  fileHistory?: RuntimeOptions['fileHistory'];
  /** Scheduled tasks: an injected clock, or off (JARVIS_DISABLE_CRON). */
  cron?: RuntimeOptions['cron'];
  workflowLimits?: RuntimeOptions['workflowLimits'];
  /** --add-dir folders: part of the workspace. */
  additionalDirs?: string[];
  /** Browser settings and the launch's choice (docs/browser.md); with it and no `tools`, the runtime picks the tool set. */
  browser?: RuntimeOptions['browser'];
  /** `[web]` policy (tests that fetch from loopback fixtures allow private addresses). */
  web?: RuntimeOptions['web'];
  /** `[memory]`; automatic extraction is off unless a test turns it on (it makes its own model requests). */
  memory?: RuntimeOptions['memory'];
  /** Tower mode's tools (docs/tower.md), as the experimental flag would give them. */
  tower?: boolean;
  /** A headless run's additions to the main agent (engine/runtime/runControls.ts). */
  mainAgent?: RuntimeOptions['mainAgent'];
  /** Sees every event as it is emitted (a run's controls observe them). */
  observe?: (event: EngineEvent) => void;
  /** The environment the session's processes start from (an SDK query's `env`); default process.env. */
  env?: RuntimeOptions['env'];
  /** `[sandbox]` (docs/sandbox.md); absent: commands are not confined. */
  sandbox?: RuntimeOptions['sandbox'];
  /** `[lsp]` (docs/lsp.md); absent: language servers are off. */
  lsp?: RuntimeOptions['lsp'];
}): EngineHarness {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'jarvis-engine-')));
  const home = opts.dirs?.home ?? join(root, 'home');
  const cwd = opts.dirs?.cwd ?? join(root, 'work');
  mkdirSync(home, { recursive: true });
  mkdirSync(cwd, { recursive: true });
  const client = new ScriptedClient(opts.responses);
  const events: EngineEvent[] = [];
  const approvals: ApprovalRequest[] = [];
  const port: ApprovalPort | undefined = opts.answer
    ? {
        ask: async (req) => {
          approvals.push(req);
          return opts.answer!(req);
        },
      }
    : undefined;
  const runtime = openRuntime({
    home,
    cwd,
    model: { ...testModel, ...opts.model },
    mode: opts.mode ?? 'manual',
    resume: opts.resume,
    compaction: opts.compaction,
    extensions: opts.extensions,
    loop: { maxStepsPerTurn: opts.maxSteps ?? 0, maxAttemptsPerStep: opts.maxAttempts ?? 10 },
    rules: opts.rules ?? [],
    nonInteractive: opts.nonInteractive ?? false,
    approvalPort: port,
    interactionPort: opts.interactionPort,
    planMode: opts.planMode,
    goal: opts.goal,
    skills: opts.skills,
    agents: opts.agents,
    delegation: opts.delegation,
    agentProfile: opts.agentProfile,
    background: { killGracePeriodMs: 200, keepAliveOnExit: false, autoBackgroundOnTimeout: true },
    notificationDelivery: 'collect',
    onEvent: (e) => {
      events.push(e);
      opts.observe?.(e);
    },
    client,
    tools: opts.tools ?? (opts.browser ? undefined : testTools()),
    browser: opts.browser,
    web: opts.web,
    toolSwitch: opts.toolSwitch,
    retryDelay: () => 0,
    gateHandlers: opts.gateHandlers,
    hooks: opts.hooks,
    mcp: opts.mcp,
    deferral: opts.deferral,
    fileHistory: opts.fileHistory,
    cron: opts.cron,
    workflowLimits: opts.workflowLimits,
    additionalDirs: opts.additionalDirs,
    memory: opts.memory ?? { ...DEFAULT_MEMORY_SETTINGS, extractionEnabled: false },
    tower: opts.tower ?? false,
    mainAgent: opts.mainAgent,
    env: opts.env,
    sandbox: opts.sandbox,
    lsp: opts.lsp,
  });
  const harness: EngineHarness = {
    home,
    cwd,
    client,
    runtime,
    events,
    approvals,
    eventsOf: (type) => events.filter((e) => e.type === type) as never,
    expectReplayIdentical() {
      const reopened = Session.open(runtime.session.location);
      expect(reopened.state).toEqual(runtime.session.state);
      expect(reopened.guard.entries()).toEqual(runtime.session.guard.entries());
    },
  };
  for (const earlier of created) if (earlier.runtime.session.dir === runtime.session.dir) superseded.add(earlier);
  created.push(harness);
  return harness;
}

/** Small tools with known accesses, for loop tests that must not depend on the real tool set. */
export function testTools(log: Array<{ name: string; phase: 'start' | 'end'; at: number }> = []): Tool[] {
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  return [
    defineTool({
      name: 'Peek',
      description: 'Reads a value slowly.',
      schema: z.object({ key: z.string(), ms: z.number().int().min(0).default(50) }),
      readOnly: true,
      defaultApproval: 'auto',
      subject: (a, ctx) => `Read(${ctx.resolve(a.key)})`,
      accesses: (a, ctx) => [{ kind: 'read', path: ctx.resolve(a.key) }],
      async execute(a) {
        log.push({ name: `Peek ${a.key}`, phase: 'start', at: Date.now() });
        await sleep(a.ms);
        log.push({ name: `Peek ${a.key}`, phase: 'end', at: Date.now() });
        return { content: `value of ${a.key}` };
      },
    }),
    defineTool({
      name: 'Poke',
      description: 'Writes a value slowly.',
      schema: z.object({ key: z.string(), ms: z.number().int().min(0).default(50) }),
      readOnly: false,
      defaultApproval: 'ask',
      subject: (a, ctx) => `Write(${ctx.resolve(a.key)})`,
      accesses: (a, ctx) => [{ kind: 'write', path: ctx.resolve(a.key) }],
      async execute(a) {
        log.push({ name: `Poke ${a.key}`, phase: 'start', at: Date.now() });
        await sleep(a.ms);
        log.push({ name: `Poke ${a.key}`, phase: 'end', at: Date.now() });
        return { content: `wrote ${a.key}` };
      },
    }),
  ];
}
