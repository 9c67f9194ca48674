// What a Claude Code hook's exit code and JSON answer mean, event by event (docs/hooks.md, "Claude Code hooks").
import { describe, expect, it } from 'vitest';
import { claudeAnswer } from '../../../src/ext/hooks/claudeHookOutput';
import type { HookEventName, HookRun } from '../../../src/ext/hooks/hookRunner';

const run = (exitCode: number, stdout = '', stderr = ''): HookRun => ({
  command: 'hook',
  exitCode,
  stdout,
  stderr,
  timedOut: false,
});
const answer = (event: HookEventName, r: HookRun) => claudeAnswer(event, r, 'the hook');
const json = (v: unknown) => run(0, JSON.stringify(v));

describe('claudeAnswer', () => {
  it('exit 2: blocks PreToolUse, UserPromptSubmit and Stop; after a tool it is feedback; elsewhere a warning', () => {
    expect(answer('PreToolUse', run(2, '', 'no writes to config/\n'))).toMatchObject({ block: 'no writes to config/' });
    expect(answer('UserPromptSubmit', run(2, '', 'no secrets'))).toMatchObject({ block: 'no secrets' });
    expect(answer('Stop', run(2, '', 'tests still fail'))).toMatchObject({ block: 'tests still fail' });
    expect(answer('PostToolUse', run(2, '', 'lint: 3 errors'))).toMatchObject({ feedback: 'lint: 3 errors' });
    expect(answer('PostToolUseFailure', run(2, '', 'retry with --force'))).toMatchObject({
      feedback: 'retry with --force',
    });
    expect(answer('SessionStart', run(2, '', 'boom')).warnings).toEqual(['the hook exited 2: boom']);
    // On exit 2 stdout is not read, as in Claude Code.
    expect(answer('PreToolUse', run(2, '{"decision": "approve"}', 'stop'))).toEqual({ block: 'stop', warnings: [] });
  });

  it('PreToolUse: permissionDecision allow/ask/deny with its reason; the old decision approve/block too', () => {
    const specific = (o: object) => json({ hookSpecificOutput: { hookEventName: 'PreToolUse', ...o } });
    expect(
      answer('PreToolUse', specific({ permissionDecision: 'deny', permissionDecisionReason: 'frozen' })),
    ).toMatchObject({
      block: 'frozen',
    });
    expect(answer('PreToolUse', specific({ permissionDecision: 'allow' })).decision).toEqual({
      permissionDecision: 'allow',
      reason: undefined,
    });
    expect(
      answer('PreToolUse', specific({ permissionDecision: 'ask', permissionDecisionReason: 'check' })).decision,
    ).toEqual({
      permissionDecision: 'ask',
      reason: 'check',
    });
    expect(answer('PreToolUse', json({ decision: 'block', reason: 'old style' }))).toMatchObject({
      block: 'old style',
    });
    expect(answer('PreToolUse', json({ decision: 'approve' })).decision?.permissionDecision).toBe('allow');
    expect(answer('PreToolUse', specific({ permissionDecision: 'defer' })).warnings).toEqual([
      'permissionDecision "defer" is not "allow", "deny" or "ask" (ignored)',
    ]);
  });

  it('a deny without a reason tells the model what the user is shown (hookify answers that way)', () => {
    const hookify = json({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny' },
      systemMessage: '**[block-rm]**\nDangerous rm',
    });
    expect(answer('PreToolUse', hookify)).toMatchObject({
      block: '**[block-rm]**\nDangerous rm',
      message: '**[block-rm]**\nDangerous rm',
    });
  });

  it('continue: false halts with stopReason; systemMessage is for the user; suppressOutput is accepted', () => {
    expect(answer('PostToolUse', json({ continue: false, stopReason: 'Build broke', suppressOutput: true }))).toEqual({
      halt: 'Build broke',
      warnings: [],
    });
    expect(answer('PreToolUse', json({ continue: false })).halt).toBe('the hook said "continue": false');
    expect(answer('Stop', json({ systemMessage: 'iteration 2' }))).toEqual({ message: 'iteration 2', warnings: [] });
  });

  it('additionalContext: context on prompts and session start, feedback around tools, a reason to go on at Stop', () => {
    const ctx = (event: HookEventName) =>
      answer(event, json({ hookSpecificOutput: { hookEventName: event, additionalContext: 'JAR-7' } }));
    expect(ctx('UserPromptSubmit').context).toBe('JAR-7');
    expect(ctx('SessionStart').context).toBe('JAR-7');
    expect(ctx('PreToolUse').feedback).toBe('JAR-7');
    expect(ctx('PostToolUse').feedback).toBe('JAR-7');
    expect(ctx('Stop').block).toBe('JAR-7');
    expect(ctx('SessionEnd').warnings).toEqual(['additionalContext has no effect on SessionEnd (ignored)']);
  });

  it('Stop: decision block with a reason goes on with the reason (ralph-loop); PostToolUse block is feedback', () => {
    expect(
      answer('Stop', json({ decision: 'block', reason: 'Same prompt again', systemMessage: 'iteration 3' })),
    ).toEqual({
      block: 'Same prompt again',
      message: 'iteration 3',
      warnings: [],
    });
    expect(answer('PostToolUse', json({ decision: 'block', reason: 'run the formatter' })).feedback).toBe(
      'run the formatter',
    );
  });

  it('plain stdout is context for UserPromptSubmit and SessionStart only; fields Jarvis cannot apply are warnings', () => {
    expect(answer('UserPromptSubmit', run(0, 'Ticket JAR-7\n'))).toEqual({ context: 'Ticket JAR-7', warnings: [] });
    expect(answer('PreToolUse', run(0, 'debug output'))).toEqual({ warnings: [] });
    expect(answer('PreToolUse', run(0, '{not json')).warnings[0]).toMatch(
      /^stdout starts like JSON but does not parse/,
    );
    const updated = json({
      hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { command: 'ls' } },
      extra: 1,
    });
    expect(answer('PreToolUse', updated).warnings).toEqual([
      '"extra" is not applied by Jarvis (ignored)',
      'hookSpecificOutput.updatedInput is not applied by Jarvis (ignored)',
    ]);
  });
});
