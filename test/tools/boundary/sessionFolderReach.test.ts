// The session folder out of a command's reach (docs/sessions.md "The scratch folder", docs/sandbox.md): only its
// scratch folder is writable, even when the workspace or [sandbox] writable_paths holds JARVIS_CODE_HOME (hidden after
// those folders are bound, then the scratch folder bound again); a writable_paths entry that would expose the session
// folder or the record key is refused, saying which.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CommandBoundary } from '../../../src/tools/boundary/commandBoundary';
import { DEFAULT_SANDBOX_SETTINGS, type SandboxSettings } from '../../../src/tools/boundary/sandboxSettings';
import { sandboxAvailable } from '../../helpers/sandboxAvailable';
import { runSandboxSpawn } from '../../helpers/sandboxSpawn';

const available = sandboxAvailable();

/** A home holding JARVIS_CODE_HOME with one session (journal, scratch folder) and the record key. */
function world() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'session-reach-')));
  const home = join(root, 'home');
  const jarvisHome = join(home, '.jarvis-code');
  const session = join(jarvisHome, 'sessions', 'p', 's');
  const scratch = join(session, 'scratch');
  for (const d of [scratch, join(jarvisHome, 'keys'), join(home, 'ws')]) mkdirSync(d, { recursive: true });
  writeFileSync(join(session, 'wire.jsonl'), '{"type":"mode","mode":"manual"}\n');
  writeFileSync(join(jarvisHome, 'keys', 'records.key'), 'KEY-SECRET\n');
  return { root, home, jarvisHome, session, scratch, ws: join(home, 'ws') };
}

function boundaryFor(w: ReturnType<typeof world>, workspace: string, settings: Partial<SandboxSettings> = {}) {
  const folders = { workspace: [workspace], scratch: w.scratch, jarvisHome: w.jarvisHome, home: w.home };
  return new CommandBoundary({ ...DEFAULT_SANDBOX_SETTINGS, ...settings }, folders);
}

async function run(boundary: CommandBoundary, command: string, cwd: string, home: string) {
  const prepared = await boundary.prepare({ command, cwd });
  if (prepared.kind !== 'sandboxed') throw new Error(`expected a sandboxed run, got ${JSON.stringify(prepared)}`);
  const r = await runSandboxSpawn(prepared.spawn, { cwd, env: { ...process.env, HOME: home } });
  prepared.settle();
  return r;
}

/** Tries to plant a journal line and a key, read the key, and write the scratch folder. */
const ATTACK = (w: ReturnType<typeof world>) =>
  [
    `echo '{"type":"mode","mode":"yolo"}' >> ${w.session}/wire.jsonl`,
    `echo forged > ${w.jarvisHome}/keys/records.key`,
    `cat ${w.jarvisHome}/keys/records.key`,
    `echo "listed:$(ls -A ${w.session} | tr '\\n' ,)"`,
    `echo plan > ${w.scratch}/plan.md && echo scratch-ok`,
  ].join('; ');

describe.skipIf(!available)('the session folder inside the sandbox', () => {
  const cases: Array<[string, (w: ReturnType<typeof world>) => CommandBoundary]> = [
    ['the workspace is the home folder holding JARVIS_CODE_HOME', (w) => boundaryFor(w, w.home)],
    ['writable_paths names the home folder', (w) => boundaryFor(w, w.ws, { writablePaths: [w.home] })],
    ['writable_paths names JARVIS_CODE_HOME itself', (w) => boundaryFor(w, w.ws, { writablePaths: [w.jarvisHome] })],
  ];
  it.each(cases)('only the scratch folder is writable when %s', async (_name, make) => {
    const w = world();
    const r = await run(make(w), ATTACK(w), w.ws, w.home);
    expect(r.stderr).not.toMatch(/^bwrap: /m);
    expect(r.out).toContain('scratch-ok');
    expect(r.out).not.toContain('KEY-SECRET');
    expect(r.out).toContain('listed:scratch,\n');
    expect(readFileSync(join(w.session, 'wire.jsonl'), 'utf8')).toBe('{"type":"mode","mode":"manual"}\n');
    expect(readFileSync(join(w.jarvisHome, 'keys', 'records.key'), 'utf8')).toBe('KEY-SECRET\n');
    expect(readFileSync(join(w.scratch, 'plan.md'), 'utf8')).toBe('plan\n');
  });

  it.each([
    ['the sessions folder', (w: ReturnType<typeof world>) => join(w.jarvisHome, 'sessions')],
    ['the session folder', (w: ReturnType<typeof world>) => w.session],
    ['a folder inside the session folder', (w: ReturnType<typeof world>) => join(w.session, 'agents')],
    ['the keys folder', (w: ReturnType<typeof world>) => join(w.jarvisHome, 'keys')],
  ])('refuses writable_paths naming %s, saying which', async (_name, pathOf) => {
    const w = world();
    const path = pathOf(w);
    mkdirSync(path, { recursive: true });
    const prepared = await boundaryFor(w, w.ws, { writablePaths: [path] }).prepare({ command: 'true', cwd: w.ws });
    expect(prepared.kind).toBe('refused');
    if (prepared.kind === 'refused') {
      expect(prepared.message).toContain(`${path} would be writable inside JARVIS_CODE_HOME`);
      expect(prepared.message).toContain('[sandbox] writable_paths');
    }
  });

  it('lets writable_paths name a folder inside the scratch folder', async () => {
    const w = world();
    const inner = join(w.scratch, 'build');
    mkdirSync(inner);
    const r = await run(
      boundaryFor(w, w.ws, { writablePaths: [inner] }),
      `echo x > ${inner}/o && cat ${inner}/o`,
      w.ws,
      w.home,
    );
    expect(r.out).toBe('x\n');
  });
});
