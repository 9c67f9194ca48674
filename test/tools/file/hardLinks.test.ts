// A regular file with more than one hard link counts as outside the workspace (docs/approvals.md
// "Paths that hold under races"): its other names may be anywhere, so a link inside the tree to a
// file outside must not be a way out. Read, Write, Edit, ReadMediaFile are asked about in manual mode
// and refused in auto mode; Grep leaves such files out of its results; `@path` does not attach them.
import { linkSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { attachMentions, type AttachmentEnv } from '../../../src/engine/runtime/promptAttachments';
import { decideApproval } from '../../../src/engine/policy/approvals';
import type { FileStateGuard } from '../../../src/engine/session/fileGuard';
import { workspaceOf } from '../../../src/engine/policy/workspace';
import type { PermissionMode } from '../../../src/engine/session/records';
import { executeToolCall, prepareToolCall, type ToolRunEnv } from '../../../src/engine/loop/toolRunner';
import type { ServiceKey, Tool, ToolServices } from '../../../src/tools/defineTool';
import { MODEL_MEDIA_INPUT } from '../../../src/tools/file';
import { editTool } from '../../../src/tools/file/editTool';
import { grepTool } from '../../../src/tools/file/grepTool';
import { readMediaFileTool } from '../../../src/tools/file/readMediaFileTool';
import { readTool } from '../../../src/tools/file/readTool';
import { isSensitivePath } from '../../../src/tools/file/sensitivePaths';
import { writeTool } from '../../../src/tools/file/writeTool';

// A 1x1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

function world() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'jarvis-links-')));
  const cwd = join(root, 'work');
  const outside = join(root, 'outside');
  mkdirSync(cwd);
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.txt'), 'OUTSIDE-SECRET\n');
  writeFileSync(join(outside, 'pic.png'), PNG);
  linkSync(join(outside, 'secret.txt'), join(cwd, 'linked.txt'));
  linkSync(join(outside, 'pic.png'), join(cwd, 'linked.png'));
  writeFileSync(join(cwd, 'plain.txt'), 'INSIDE-SECRET\n');
  const registry = new Map<string, unknown>([[MODEL_MEDIA_INPUT.name, { image: true, video: false }]]);
  const services: ToolServices = {
    scratchDir: join(root, 'session', 'scratch'),
    nonInteractive: false,
    mainAgent: true,
    get<T>(key: ServiceKey<T>): T {
      if (!registry.has(key.name)) throw new Error(`no service ${key.name}`);
      return registry.get(key.name) as T;
    },
    find: <T>(key: ServiceKey<T>) => registry.get(key.name) as T | undefined,
  };
  const guard = {
    check: async () => undefined,
    capture: async () => [],
    entries: () => [],
  } as unknown as FileStateGuard;
  const env: ToolRunEnv = { cwd, services, guard, onProgress: () => undefined };
  return { root, cwd, outside, env, services };
}

type World = ReturnType<typeof world>;

function judge(
  w: World,
  mode: PermissionMode,
  toolName: string,
  subject: string,
  accesses: Parameters<typeof decideApproval>[0]['accesses'],
) {
  return decideApproval({
    toolName,
    subject,
    accesses,
    defaultApproval: 'auto',
    mode,
    rules: [],
    sessionApprovals: [],
    cwd: w.cwd,
    workspace: workspaceOf({ cwd: w.cwd }),
    isSensitivePath,
  });
}

const calls: Array<[Tool, Record<string, unknown>]> = [
  [readTool, { path: 'linked.txt' }],
  [writeTool, { path: 'linked.txt', content: 'overwritten' }],
  [editTool, { path: 'linked.txt', old_string: 'OUTSIDE', new_string: 'CHANGED' }],
  [readMediaFileTool, { path: 'linked.png' }],
];

describe('hard links to a file outside the workspace', () => {
  for (const [tool, args] of calls) {
    it(`${tool.name} of a hard link is asked about in manual mode and refused in auto mode`, () => {
      const w = world();
      const prepared = prepareToolCall(
        { id: 'c1', name: tool.name, arguments: JSON.stringify(args) },
        new Map([[tool.name, tool]]),
        w.env,
      );
      expect(prepared.accesses[0]).toMatchObject({ linked: true });
      const manual = judge(w, 'manual', tool.name, prepared.subject, prepared.accesses);
      expect(manual).toMatchObject({ decision: 'ask', by: 'outside the workspace' });
      expect(manual.reason).toContain('has more than one hard link, so it counts as outside the workspace');
      expect(judge(w, 'yolo', tool.name, prepared.subject, prepared.accesses).decision).toBe('ask');
      const auto = judge(w, 'auto', tool.name, prepared.subject, prepared.accesses);
      expect(auto).toMatchObject({ decision: 'deny', by: 'outside the workspace (auto mode)' });
    });
  }

  it('a file with one link is judged as before', () => {
    const w = world();
    const prepared = prepareToolCall(
      { id: 'c1', name: 'Read', arguments: '{"path":"plain.txt"}' },
      new Map([['Read', readTool]]),
      w.env,
    );
    expect(prepared.accesses[0]).not.toHaveProperty('linked');
    expect(judge(w, 'auto', 'Read', prepared.subject, prepared.accesses).decision).toBe('allow');
  });

  it('a tool run without a judgement (no approved access) refuses a hard-linked file', async () => {
    const w = world();
    const ctx = {
      cwd: w.cwd,
      signal: new AbortController().signal,
      callId: 'x',
      services: w.services,
      resolve: (p: string) => join(w.cwd, p),
      emitProgress: () => undefined,
    };
    for (const [tool, args] of calls) {
      const result = await tool.execute(
        tool.validateArgs(args).ok ? (tool.validateArgs(args) as { args: unknown }).args : args,
        ctx,
      );
      expect(result.isError, tool.name).toBe(true);
      expect(String(typeof result.content === 'string' ? result.content : '')).toContain('has 2 hard links');
    }
    expect(readFileSync(join(w.outside, 'secret.txt'), 'utf8')).toBe('OUTSIDE-SECRET\n');
  });

  it('Grep leaves hard-linked files out of its results and says so', async () => {
    const w = world();
    const prepared = prepareToolCall(
      { id: 'g', name: 'Grep', arguments: '{"pattern":"SECRET","output_mode":"content"}' },
      new Map([['Grep', grepTool]]),
      w.env,
    );
    const { result } = await executeToolCall(prepared, w.env, new AbortController().signal);
    const text = String(result.content);
    expect(text).toContain('plain.txt');
    expect(text).toContain('INSIDE-SECRET');
    expect(text).not.toContain('OUTSIDE-SECRET');
    expect(text).toContain('[1 file with more than one hard link skipped: such files count as outside the workspace');
  });

  it('@path of a hard link is not attached (auto and manual mode)', async () => {
    const w = world();
    for (const mode of ['auto', 'manual'] as const) {
      const env: AttachmentEnv = {
        cwd: w.cwd,
        services: w.services,
        judgeRead: (toolName, access) => judge(w, mode, toolName, `${toolName}(${access.path})`, [access]),
      };
      const out = await attachMentions('see @linked.txt and @linked.png and @plain.txt', env);
      const text = out.parts.map((p) => (p.type === 'text' ? p.text : '')).join('\n');
      expect(text).toContain('INSIDE-SECRET');
      expect(text).not.toContain('OUTSIDE-SECRET');
      expect(out.notices.filter((n) => n.includes('has more than one hard link'))).toHaveLength(2);
    }
  });
});
