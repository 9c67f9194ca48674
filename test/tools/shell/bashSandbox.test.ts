// Bash and the command sandbox (docs/sandbox.md): how a call's approval depends on the sandbox (auto_allow,
// dangerously_unsandboxed), what the approval panel is shown, and the policy for leaving the sandbox per mode.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { prepareToolCall, type ToolRunEnv } from '../../../src/engine/loop/toolRunner';
import { FileStateGuard } from '../../../src/engine/session/fileGuard';
import { decideApproval } from '../../../src/engine/policy/approvals';
import { analyseShellCommand } from '../../../src/engine/policy/shellCommands';
import { bashTool } from '../../../src/tools/shell/bashTool';
import { BOUNDARY_SERVICE, CommandBoundary } from '../../../src/tools/boundary/commandBoundary';
import { DEFAULT_SANDBOX_SETTINGS, type SandboxSettings } from '../../../src/tools/boundary/sandboxSettings';
import { TASK_SERVICE } from '../../../src/tools/task/taskService';
import type { ServiceKey, ToolServices } from '../../../src/tools/defineTool';
import { bashPolicyInput } from '../../helpers/bashPolicyInput';
import { makeToolHarness } from '../../helpers/toolHarness';
import { sandboxAvailable } from '../../helpers/sandboxAvailable';

const available = sandboxAvailable();

function prepared(args: Record<string, unknown>, settings?: Partial<SandboxSettings>) {
  const h = makeToolHarness();
  const lent = new Map<string, unknown>([[TASK_SERVICE.name, {}]]);
  if (settings) {
    const sandbox = new CommandBoundary(
      { ...DEFAULT_SANDBOX_SETTINGS, ...settings },
      { workspace: [h.cwd], scratch: h.sessionDir, jarvisHome: join(h.sessionDir, 'home'), home: h.cwd },
    );
    lent.set(BOUNDARY_SERVICE.name, sandbox);
  }
  const services: ToolServices = {
    ...h.services,
    get: <T>(key: ServiceKey<T>) => lent.get(key.name) as T,
    find: <T>(key: ServiceKey<T>) => lent.get(key.name) as T | undefined,
  };
  const env: ToolRunEnv = { cwd: h.cwd, services, guard: new FileStateGuard(), onProgress: () => {} };
  const call = { id: 'c1', name: 'Bash', arguments: JSON.stringify(args) };
  return prepareToolCall(call, new Map([['Bash', bashTool]]), env);
}

describe.skipIf(!available)('Bash approval with the sandbox', () => {
  it('asks for a sandboxed command in manual mode unless auto_allow is on', () => {
    expect(prepared({ command: 'ls' }, {}).defaultApproval).toBe('ask');
    expect(prepared({ command: 'ls' }, { autoAllow: true }).defaultApproval).toBe('auto');
    expect(prepared({ command: 'ls' }, { autoAllow: true, enabled: false }).defaultApproval).toBe('ask');
  });

  it('always asks to leave the sandbox, and the panel says UNSANDBOXED', () => {
    const p = prepared({ command: 'ls', dangerously_unsandboxed: true }, { autoAllow: true });
    expect(p.defaultApproval).toBe('ask');
    expect(p.boundary).toEqual({ confinement: 'unsandboxed', escalation: true });
    expect(p.preview).toMatchObject({ kind: 'text' });
    expect(p.preview?.kind === 'text' && p.preview.text).toMatch(/^UNSANDBOXED/);
  });

  it('does not mark a call unsandboxed where the sandbox is off', () => {
    const p = prepared({ command: 'ls', dangerously_unsandboxed: true }, { enabled: false });
    expect(p.boundary).toEqual({ confinement: 'unsandboxed', escalation: false });
    expect(p.preview).toBeUndefined();
  });
});

describe('the policy for leaving the sandbox', () => {
  const rule = { decision: 'allow' as const, pattern: 'Bash(make deploy)' };
  it.each([
    ['auto mode refuses it', 'make deploy', [], 'auto', 'deny'],
    ['an allow rule covering it lets it run in auto mode', 'make deploy', [rule], 'auto', 'allow'],
    ['the rule must cover every command', 'make deploy; curl x', [rule], 'auto', 'deny'],
    ['manual mode asks', 'make deploy', [], 'manual', 'ask'],
  ] as const)('%s', async (_name, command, rules, mode, expected) => {
    const input = bashPolicyInput(command, await analyseShellCommand(command), [...rules], mode, {
      boundary: { confinement: 'unsandboxed', escalation: true },
    });
    const decision = decideApproval(input);
    expect(decision.decision).toBe(expected);
    if (expected === 'deny') expect(decision.by).toBe('outside the sandbox (auto mode)');
  });

  it('a sandboxed command in auto mode runs as before', async () => {
    const decision = decideApproval(
      bashPolicyInput('make deploy', await analyseShellCommand('make deploy'), [], 'auto'),
    );
    expect(decision).toMatchObject({ decision: 'allow', by: 'auto mode' });
  });
});
