import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Disposables } from '../../../src/engine/runtime/disposables';
import type { EngineEvent } from '../../../src/engine/loop/events';
import { Session } from '../../../src/engine/session/session';
import { SessionControl, SessionControlError } from '../../../src/engine/runtime/sessionControl';
import { parseConfigText } from '../../../src/store/config';
import { startMockModelServer, type MockModelServer } from '../../helpers/mockModelServer';
import { testModel, testTools } from '../../helpers/engineHarness';

let server: MockModelServer;
let root: string;
const controls: SessionControl[] = [];

beforeAll(async () => {
  server = await startMockModelServer({
    script: (req) => ({ text: `answer from ${(req.body as { model: string }).model}` }),
  });
});
afterAll(async () => {
  await server.close();
});
afterEach(async () => {
  for (const c of controls.splice(0)) await c.close(true);
  rmSync(root, { recursive: true, force: true });
});

function makeControl(events: EngineEvent[] = []): SessionControl {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'jarvis-control-')));
  const text = `[providers.mock]\ntype = "openai"\nbase_url = "${server.baseUrlFor('openai')}"\napi_key = "k"\n\n[models.one]\nprovider = "mock"\nmodel = "model-one"\nmax_context_size = 100000\n\n[models.two]\nprovider = "mock"\nmodel = "model-two"\nmax_context_size = 100000\n`;
  const { config } = parseConfigText(text, join(root, 'config.toml'));
  const control = new SessionControl({
    base: {
      home: join(root, 'home'),
      cwd: root,
      model: {
        ...testModel,
        providerName: 'mock',
        baseUrl: server.baseUrlFor('openai'),
        model: 'model-one',
        alias: 'one',
      },
      mode: 'yolo',
      loop: { maxStepsPerTurn: 0, maxAttemptsPerStep: 2 },
      rules: [],
      background: { killGracePeriodMs: 200, keepAliveOnExit: false, autoBackgroundOnTimeout: true },
      tools: testTools(),
      retryDelay: () => 0,
    },
    models: { config, configPath: join(root, 'config.toml'), env: {} },
    nonInteractive: false,
    notificationDelivery: 'collect',
    onEvent: (e) => events.push(e),
  });
  controls.push(control);
  return control;
}

describe('session control in the engine', () => {
  it('switches the model on the live session: nothing is closed, the next request goes to the new model, the switch is journalled', async () => {
    const control = makeControl();
    const rt = control.ensure();
    expect((await rt.agent.run('first')).text).toBe('answer from model-one');
    const task = rt.tasks.startProcess({ command: 'sleep 30', cwd: root, description: 'long job', timeoutMs: null });
    let disposed = false;
    rt.disposables.add({ name: 'probe', dispose: () => void (disposed = true) });

    control.switchModel('two');
    expect(control.runtime).toBe(rt);
    expect(disposed).toBe(false);
    expect(rt.tasks.list().find((t) => t.id === task.id)?.status).toBe('running');
    expect((await rt.agent.run('second')).text).toBe('answer from model-two');
    expect(rt.session.state.modelAlias).toBe('two');
    expect(Session.open(rt.session.location).state).toEqual(rt.session.state);
  });

  it('refuses to switch while a turn runs, and for an alias that does not exist', async () => {
    const control = makeControl();
    const rt = control.ensure();
    rt.agent.submit({ kind: 'prompt', text: 'busy' });
    expect(rt.agent.busy).toBe(true);
    expect(() => control.switchModel('two')).toThrow(SessionControlError);
    expect(() => control.switchModel('two')).toThrow(/while a turn is running/);
    await rt.agent.idle();
    expect(() => control.switchModel('nope')).toThrow(/nope/);
    expect(control.model.alias).toBe('one');
  });

  it('before the session exists, a switch applies to the session it creates', async () => {
    const control = makeControl();
    control.switchModel('two');
    expect(control.runtime).toBeUndefined();
    const rt = control.ensure();
    expect((await rt.agent.run('hello')).text).toBe('answer from model-two');
  });

  it('new, resume and fork: a new session starts empty, resume replays, fork copies', async () => {
    const control = makeControl();
    const first = control.ensure();
    await first.agent.run('remember me');
    const location = first.session.location;
    const fork = control.fork();
    expect(fork.sessionId).not.toBe(first.session.id);
    await control.newSession();
    expect(control.runtime).toBeUndefined();
    const second = control.ensure();
    expect(second.session.id).not.toBe(first.session.id);
    expect(second.session.state.messages).toEqual([]);
    const resumed = await control.resume(location);
    expect(resumed.session.state.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(() => makeControl().fork()).toThrow(/Nothing to fork yet/);
  });
});

describe('runtime disposables', () => {
  it('close newest first, each once, and one failure does not keep the rest open', async () => {
    const order: string[] = [];
    const d = new Disposables();
    d.add({ name: 'tasks', dispose: () => void order.push('tasks') });
    const off = d.add({ name: 'gone', dispose: () => void order.push('gone') });
    d.add({ name: 'mcp docs', dispose: () => Promise.reject(new Error('server hung')) });
    d.add({ name: 'browser', dispose: async ({ force }) => void order.push(`browser force=${force}`) });
    off();
    expect(await d.disposeAll({ force: true })).toEqual(['closing mcp docs failed: server hung']);
    expect(order).toEqual(['browser force=true', 'tasks']);
    expect(await d.disposeAll({ force: false })).toEqual([]);
    expect(() => d.add({ name: 'late', dispose: () => undefined })).toThrow(/already closed/);
  });

  it('a runtime closes its disposables after session-end handlers, and reports failures as notices', async () => {
    const events: EngineEvent[] = [];
    const control = makeControl(events);
    const rt = control.ensure();
    const order: string[] = [];
    rt.gate.register({ name: 'hooks', onSessionEnd: () => void order.push('session end') });
    rt.disposables.add({ name: 'mcp docs', dispose: () => void order.push('mcp docs') });
    rt.disposables.add({ name: 'browser', dispose: () => Promise.reject(new Error('already dead')) });
    await control.close();
    expect(order).toEqual(['session end', 'mcp docs']);
    expect(events.filter((e) => e.type === 'notice').map((e) => (e as { text: string }).text)).toContain(
      'closing browser failed: already dead',
    );
  });
});
