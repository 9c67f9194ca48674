// Computer use under the ordinary approvals, through an editor (ACP) in manual mode (docs/computer-use.md,
// "Consent and control"): the authorization asked once per session before the first use, typing asked every time
// (never "for the session") and a rejected call doing nothing, screenshots approvable for the session, a refused
// key combination, and a cancel in the middle of typing stopping it before the next character.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import type { RequestPermissionRequest } from '@agentclientprotocol/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAcpClient, type AcpTestClient } from '../helpers/acpClient';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis, waitUntil } from '../helpers/cli';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';
import { requireSystemPart } from '../helpers/requireAll';
import { hasVirtualDesktop, startVirtualDisplay, type VirtualDisplay } from '../helpers/virtualDisplay';

const PLUGIN = resolve(__dirname, '../../dist/plugins/jarvis-computer-use');
const PROBE_APP = resolve(__dirname, '../fixtures/computer-use/probe_app.py');
const T = 'mcp__plugin-jarvis-computer-use_desktop__';
const runs =
  requireSystemPart('Xvfb', 'computer use is tested on a virtual X11 desktop') &&
  requireSystemPart('xdotool', 'an independent keystroke marks the end of the typing') &&
  hasVirtualDesktop();

const call = (name: string, args: Record<string, unknown>) => ({ name: `${T}${name}`, arguments: args });
const optionIds = (r: RequestPermissionRequest) => r.options.map((o) => o.optionId);
const askText = (r: RequestPermissionRequest) => JSON.stringify(r.toolCall.content ?? []);

describe.runIf(runs)('computer use approvals in manual mode (ACP)', { timeout: 180_000 }, () => {
  let model: MockModelServer;
  let desktop: VirtualDisplay;
  let editor: AcpTestClient;
  let sessionId: string;
  let events = '';
  /** The text field's content as the application last reported it. */
  const typed = () => [...events.matchAll(/^text (.*)$/gm)].at(-1)?.[1] ?? '';
  const prompt = (text: string) =>
    editor.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
  const lastToolText = () => {
    const messages = model.requests.at(-1)!.body.messages as Array<{ role: string; content: string }>;
    return messages.filter((m) => m.role === 'tool').at(-1)?.content ?? '';
  };

  beforeAll(async () => {
    model = await startMockModelServer();
    desktop = await startVirtualDisplay();
    const app = desktop.launch('python3', [PROBE_APP]);
    app.stdout!.on('data', (d) => (events += d));
    await desktop.waitForWindow(/Jarvis Probe/);
    await waitUntil(() => events.includes('ready'), 20_000, 'the probe application');
    const dirs = makeCliDirs();
    const env = cliEnv(dirs, { ...mockModelEnv(model.baseUrlFor('openai')), ...desktop.env });
    expect((await runJarvis(['plugin', 'install', PLUGIN, '--tier', 'official'], { env, cwd: dirs.cwd })).code).toBe(0);
    editor = await startAcpClient({ env, cwd: dirs.cwd });
    ({ sessionId } = await editor.connection.agent.request('session/new', { cwd: dirs.cwd, mcpServers: [] }));
  });
  afterAll(async () => {
    await editor?.close();
    await desktop?.close();
    await model?.close();
  });

  it('asks for the authorization first, then asks before typing; a rejected call types nothing', async () => {
    const asked: RequestPermissionRequest[] = [];
    editor.answerPermissions((r) => {
      asked.push(r);
      return asked.length === 1 ? 'allow_session' : 'reject';
    });
    // A rejection without feedback ends the turn: no second model request.
    model.push({ toolCalls: [call('type_text', { text: 'hello' })] });
    expect((await prompt('type hello')).stopReason).toBe('end_turn');
    expect(model.remaining()).toBe(0);
    expect(asked).toHaveLength(2);
    // The authorization: which display and what the agent will be able to do; only for the whole session.
    expect(askText(asked[0])).toContain(`Authorize computer use on display ${desktop.display} for this session?`);
    expect(askText(asked[0])).toContain('move the pointer, click, drag, scroll, type and press keys');
    expect(optionIds(asked[0])).toEqual(['allow_session', 'reject']);
    // Typing: asked one call at a time, never for the session.
    expect(optionIds(asked[1])).toEqual(['allow_once', 'reject']);
    expect(askText(asked[1])).toContain(`acts on the desktop on display ${desktop.display}`);
    expect(JSON.stringify(editor.updates.filter((u) => u.update.sessionUpdate === 'tool_call_update'))).toContain(
      'The user rejected this call',
    );
    expect(events).not.toMatch(/^text /m);

    // The next call is not asked to authorize again; approved once, it types.
    asked.length = 0;
    editor.answerPermissions((r) => (asked.push(r), 'allow_once'));
    model.push({ toolCalls: [call('type_text', { text: 'hello' })] }, { text: 'typed' });
    expect((await prompt('type hello')).stopReason).toBe('end_turn');
    expect(asked.map(optionIds)).toEqual([['allow_once', 'reject']]);
    await waitUntil(() => typed() === 'hello', 10_000, 'the application to show the text');
  });

  it('lets screenshots be approved for the session, and refuses a combination that would kill the session', async () => {
    const asked: RequestPermissionRequest[] = [];
    editor.answerPermissions(
      (r) => (asked.push(r), optionIds(r).includes('allow_session') ? 'allow_session' : 'allow_once'),
    );
    model.push(
      { toolCalls: [call('screenshot', {})] },
      { toolCalls: [call('screenshot', {})] },
      { text: 'seen twice' },
    );
    expect((await prompt('look twice')).stopReason).toBe('end_turn');
    expect(asked.map(optionIds)).toEqual([['allow_once', 'allow_session', 'reject']]);
    expect(lastToolText()).toContain('Whole screen: 1280×800 px');

    model.push({ toolCalls: [call('press_keys', { keys: ['Ctrl+Alt+BackSpace'] })] }, { text: 'refused' });
    expect((await prompt('restart the X server')).stopReason).toBe('end_turn');
    expect(lastToolText()).toContain('ctrl+alt+BackSpace ("Ctrl+Alt+BackSpace") is refused: it can kill the X server');
    expect((await desktop.windows()).some((w) => w.title === 'Jarvis Probe')).toBe(true);
  });

  it('stops typing at a cancel, before the next character', async () => {
    const long = 'abcdefghij'.repeat(200);
    editor.answerPermissions('allow_once');
    const before = typed().length;
    model.push({ toolCalls: [call('type_text', { text: long })] });
    const running = prompt('type a lot');
    await waitUntil(() => typed().length >= before + 20, 30_000, 'the typing to start');
    await editor.connection.agent.notify('session/cancel', { sessionId });
    expect((await running).stopReason).toBe('cancelled');
    // The server does one thing at a time: this call runs only once the typing has ended.
    model.push({ toolCalls: [call('list_windows', {})] }, { text: 'listed' });
    expect((await prompt('list the windows')).stopReason).toBe('end_turn');
    expect(lastToolText()).toContain('"Jarvis Probe"');
    // A keystroke of another program marks the end: every character typed before it has been handled by then.
    execFileSync('xdotool', ['key', 'Z'], { env: { ...process.env, ...desktop.env } });
    await waitUntil(() => typed().endsWith('Z'), 10_000, 'the marker keystroke');
    const final = typed().slice(before, -1);
    expect(final.length).toBeGreaterThanOrEqual(20);
    expect(final.length).toBeLessThan(long.length);
    expect(long.startsWith(final)).toBe(true);
  });
});
