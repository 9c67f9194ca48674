// Computer-use calls in the engine (docs/approvals.md, "Computer use"): the session's authorization before the first
// one, in every mode; acting calls approved one at a time; rules; and desktop calls of one response kept in order.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ApprovalAnswer, ApprovalRequest } from '../../../src/engine/policy/approvals';
import { decideAuthorization } from '../../../src/engine/policy/desktopAuthorization';
import type { PermissionMode } from '../../../src/engine/session/records';
import { defineTool, type Tool } from '../../../src/tools/defineTool';
import { makeEngine, runPrompt, verifyEnginesAfterEach } from '../../helpers/engineHarness';

verifyEnginesAfterEach();

const DISPLAY = ':5';
const log: string[] = [];

function desktopTools(): Tool[] {
  const schema = z.object({ label: z.string(), ms: z.number().default(0) });
  const run = async (a: { label: string; ms: number }) => {
    log.push(`${a.label} start`);
    await new Promise((r) => setTimeout(r, a.ms));
    log.push(`${a.label} end`);
    return { content: `did ${a.label}` };
  };
  return [
    defineTool({
      name: 'Act',
      description: 'Acts.',
      schema,
      readOnly: false,
      defaultApproval: 'ask',
      desktop: { action: 'input', display: DISPLAY },
      accesses: (_a, ctx) => [{ kind: 'exec', cwd: ctx.cwd }],
      execute: run,
    }),
    defineTool({
      name: 'Look',
      description: 'Looks.',
      schema,
      readOnly: true,
      defaultApproval: 'ask',
      desktop: { action: 'observe', display: DISPLAY },
      execute: run,
    }),
  ];
}

function engine(
  mode: PermissionMode,
  answer: ((r: ApprovalRequest) => ApprovalAnswer) | undefined,
  calls: Array<[string, string]>[],
  rules = [],
) {
  log.length = 0;
  return makeEngine({
    mode,
    rules,
    tools: desktopTools(),
    ...(answer ? { answer } : {}),
    responses: [
      ...calls.map((step) => ({ toolCalls: step.map(([name, label]) => ({ name, arguments: { label } })) })),
      { text: 'done' },
    ],
  });
}

const results = (h: ReturnType<typeof makeEngine>) =>
  h.runtime.session.state.messages.flatMap((m) =>
    m.role === 'tool' ? [m.content.map((p) => (p.type === 'text' ? p.text : '')).join('')] : [],
  );

describe('the computer-use authorization', () => {
  it('is asked once per session before the first call, only for the session; acting calls are then asked one at a time', async () => {
    const h = engine(
      'manual',
      (r) => (r.toolName === 'ComputerUse' ? { decision: 'approve_session' } : { decision: 'approve_session' }),
      [[['Act', 'one']], [['Act', 'two']], [['Look', 'see']], [['Look', 'again']]],
    );
    await runPrompt(h, 'go');
    expect(h.approvals.map((r) => [r.subject, r.offers])).toEqual([
      [`ComputerUse(${DISPLAY})`, ['session']],
      ['Act', ['once']],
      // "For the session" was answered, but an acting call is not remembered: the next one asks again.
      ['Act', ['once']],
      // Looking may be approved for the session.
      ['Look', undefined],
    ]);
    expect(h.approvals[0].reason).toContain(`Authorize computer use on display ${DISPLAY} for this session?`);
    expect(h.approvals[1].reason).toBe(`Act acts on the desktop on display ${DISPLAY}; manual mode asks first`);
    expect(h.runtime.session.state.sessionApprovals).toEqual([`ComputerUse(${DISPLAY})`, 'Look']);
    expect(log.filter((l) => l.endsWith('end'))).toEqual(['one end', 'two end', 'see end', 'again end']);
  });

  it('is asked in yolo mode too, after which acting runs without asking', async () => {
    const h = engine('yolo', () => ({ decision: 'approve' }), [
      [
        ['Act', 'one'],
        ['Act', 'two'],
      ],
    ]);
    await runPrompt(h, 'go');
    expect(h.approvals.map((r) => r.subject)).toEqual([`ComputerUse(${DISPLAY})`]);
    expect(results(h)).toEqual(['did one', 'did two']);
  });

  it('refused, stops the turn and nothing runs', async () => {
    const h = engine('yolo', () => ({ decision: 'reject' }), [[['Act', 'one']]]);
    const outcome = await runPrompt(h, 'go');
    expect(outcome.reason).not.toBe('completed');
    expect(log).toEqual([]);
    expect(results(h)[0]).toContain(`The user did not authorize computer use on display ${DISPLAY}`);
  });

  it('is refused where nobody can be asked, unless a rule authorizes it', async () => {
    const refused = engine('auto', undefined, [[['Look', 'see']]]);
    await runPrompt(refused, 'go');
    expect(log).toEqual([]);
    expect(results(refused)[0]).toContain(
      `Computer use on display ${DISPLAY} is not authorized for this session, and no one can be asked here`,
    );
    expect(results(refused)[0]).toContain(`pattern = "ComputerUse(${DISPLAY})"`);

    const allowed = engine('auto', undefined, [[['Act', 'one']]], [
      { decision: 'allow', pattern: `ComputerUse(${DISPLAY})` },
    ] as never);
    await runPrompt(allowed, 'go');
    expect(results(allowed)).toEqual(['did one']);
  });

  it('a deny rule refuses computer use without asking', async () => {
    const h = engine('manual', () => ({ decision: 'approve' }), [[['Look', 'see']]], [
      { decision: 'deny', pattern: 'ComputerUse(*)', reason: 'not on this machine' },
    ] as never);
    await runPrompt(h, 'go');
    expect(h.approvals).toEqual([]);
    expect(log).toEqual([]);
    expect(results(h)[0]).toMatch(
      /^Computer use on display :5 is denied by a permission rule \(rule deny ComputerUse\(\*\)\) \(not on this machine\)/,
    );
  });

  it('keeps the desktop calls of one response in order: looking waits for the acting before it', async () => {
    log.length = 0;
    const h = makeEngine({
      mode: 'yolo',
      tools: desktopTools(),
      answer: () => ({ decision: 'approve' }),
      responses: [
        {
          toolCalls: [
            { name: 'Act', arguments: { label: 'click', ms: 80 } },
            { name: 'Look', arguments: { label: 'shot', ms: 0 } },
            { name: 'Act', arguments: { label: 'type', ms: 10 } },
          ],
        },
        { text: 'done' },
      ],
    });
    await runPrompt(h, 'go');
    expect(log).toEqual(['click start', 'click end', 'shot start', 'shot end', 'type start', 'type end']);
  });
});

describe('decideAuthorization', () => {
  const base = { display: ':0', rules: [], sessionApprovals: [], cwd: '/repo' };
  it.each([
    [{}, 'ask'],
    [{ sessionApprovals: ['ComputerUse(:0)'] }, 'allow'],
    [{ sessionApprovals: ['ComputerUse(:1)'] }, 'ask'],
    [{ rules: [{ decision: 'allow', pattern: 'ComputerUse(:0)' }] }, 'allow'],
    [{ rules: [{ decision: 'allow', pattern: 'ComputerUse' }] }, 'allow'],
    [{ rules: [{ decision: 'allow', pattern: 'ComputerUse(:1)' }] }, 'ask'],
    [{ rules: [{ decision: 'deny', pattern: 'ComputerUse(*)' }], sessionApprovals: ['ComputerUse(:0)'] }, 'deny'],
    [
      {
        rules: [
          { decision: 'allow', pattern: 'ComputerUse(*)' },
          { decision: 'deny', pattern: 'ComputerUse(:0)' },
        ],
      },
      'deny',
    ],
  ])('%j → %s', (over, expected) => {
    expect(decideAuthorization({ ...base, ...(over as object) }).decision).toBe(expected);
  });
});
