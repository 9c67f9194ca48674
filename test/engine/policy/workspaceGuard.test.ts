// Sensitive files and paths outside the workspace, through the engine with the real file tools
// (docs/approvals.md "Sensitive files and the workspace"): one rule for `../x`, absolute paths and
// symlinks; auto mode refuses unless a rule or --add-dir allows; manual and yolo ask.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApprovalAnswer, ApprovalRequest, PermissionRule } from '../../../src/engine/policy/approvals';
import type { PermissionMode } from '../../../src/engine/session/records';
import { SkillCatalog } from '../../../src/ext/skills/skillCatalog';
import type { Skill } from '../../../src/ext/skills/skillFile';
import { fileTools } from '../../../src/tools/file';
import { makeEngine, runPrompt, verifyEnginesAfterEach, type EngineHarness } from '../../helpers/engineHarness';

verifyEnginesAfterEach();

type Call = { name: string; arguments: Record<string, unknown> };

interface World {
  root: string;
  outside: string;
  added: string;
}

/** root/work (cwd) with secrets and links out; root/outside; root/added (an --add-dir folder). */
function world(engine: EngineHarness): World {
  const root = dirname(engine.cwd);
  const outside = join(root, 'outside');
  const added = join(root, 'added');
  mkdirSync(outside, { recursive: true });
  mkdirSync(added, { recursive: true });
  mkdirSync(join(engine.cwd, 'keys'), { recursive: true });
  writeFileSync(join(outside, 'secret.txt'), 'OUTSIDE-CONTENT\n');
  writeFileSync(join(added, 'notes.txt'), 'ADDED-CONTENT\n');
  writeFileSync(join(engine.cwd, 'a.txt'), 'INSIDE-CONTENT\n');
  writeFileSync(join(engine.cwd, '.env'), 'API_KEY=ENV-SECRET\n');
  writeFileSync(join(engine.cwd, 'keys', 'id_rsa'), 'KEY-SECRET\n');
  symlinkSync(join(outside, 'secret.txt'), join(engine.cwd, 'link-out.txt'));
  symlinkSync(outside, join(engine.cwd, 'dir-out'));
  symlinkSync(join(engine.cwd, '.env'), join(engine.cwd, 'config.txt'));
  symlinkSync(join(outside, 'made-by-link.txt'), join(engine.cwd, 'dangling.txt'));
  const sessionOutputs = join(engine.runtime.session.scratchDir, 'tool-outputs');
  mkdirSync(sessionOutputs, { recursive: true });
  writeFileSync(join(sessionOutputs, 'saved.txt'), 'SAVED-OUTPUT\n');
  return { root, outside, added };
}

type EngineOptions = {
  rules?: PermissionRule[];
  answer?: (r: ApprovalRequest) => ApprovalAnswer;
  gateHandlers?: Parameters<typeof makeEngine>[0]['gateHandlers'];
};

function engineFor(
  mode: PermissionMode,
  calls: (w: { cwd: string; root: string }) => Call[],
  opts: EngineOptions = {},
): EngineHarness {
  const engine: EngineHarness = makeEngine({
    mode,
    tools: fileTools,
    // ReadMediaFile is offered only to a model that takes images.
    model: { capabilities: ['tool_use', 'image_in'] },
    rules: opts.rules,
    answer: opts.answer,
    nonInteractive: !opts.answer,
    gateHandlers: opts.gateHandlers,
    additionalDirs: [],
    responses: (_req, index) =>
      index === 0
        ? { toolCalls: calls({ cwd: engine.cwd, root: dirname(engine.cwd) }).map((c, i) => ({ id: `c${i}`, ...c })) }
        : { text: 'done' },
  });
  return engine;
}

async function resultsOf(engine: EngineHarness): Promise<string[]> {
  await runPrompt(engine, 'go');
  const byId = new Map<string, string>();
  for (const m of engine.runtime.session.state.messages) {
    if (m.role === 'tool')
      byId.set(m.toolCallId, m.content.map((p) => (p.type === 'text' ? p.text : `[${p.type}]`)).join('\n'));
  }
  return [...byId.keys()].sort((a, b) => Number(a.slice(1)) - Number(b.slice(1))).map((id) => byId.get(id)!);
}

const OUTSIDE_FORMS = (w: { cwd: string; root: string }): Call[] => [
  { name: 'Read', arguments: { path: '../outside/secret.txt' } },
  { name: 'Read', arguments: { path: join(w.root, 'outside', 'secret.txt') } },
  { name: 'Read', arguments: { path: 'link-out.txt' } },
  { name: 'Read', arguments: { path: 'dir-out/secret.txt' } },
  { name: 'Read', arguments: { path: '../../../../../etc/passwd' } },
  { name: 'Read', arguments: { path: '/etc/passwd' } },
  { name: 'Write', arguments: { path: '../outside/new.txt', content: 'x' } },
  { name: 'Write', arguments: { path: join(w.root, 'outside', 'new.txt'), content: 'x' } },
  { name: 'Write', arguments: { path: 'dangling.txt', content: 'x' } },
  { name: 'Edit', arguments: { path: 'link-out.txt', old_string: 'OUTSIDE', new_string: 'CHANGED' } },
  { name: 'Grep', arguments: { pattern: 'CONTENT', path: '..' } },
  { name: 'Glob', arguments: { pattern: '../**/*.txt' } },
  { name: 'Glob', arguments: { pattern: '*', path: '/etc' } },
  { name: 'ReadMediaFile', arguments: { path: '../outside/x.png' } },
];

const SENSITIVE_FORMS: Call[] = [
  { name: 'Read', arguments: { path: '.env' } },
  { name: 'Read', arguments: { path: 'config.txt' } },
  { name: 'Read', arguments: { path: 'keys/id_rsa' } },
  { name: 'Write', arguments: { path: '.env', content: 'API_KEY=overwritten' } },
  { name: 'Write', arguments: { path: '.env.production', content: 'x' } },
  { name: 'Edit', arguments: { path: 'config.txt', old_string: 'ENV', new_string: 'X' } },
  { name: 'Grep', arguments: { pattern: 'SECRET', path: '.env' } },
];

describe('auto mode (no one to ask)', () => {
  it('refuses every form of a path outside the workspace with the same reason, and touches nothing', async () => {
    const engine = engineFor('auto', OUTSIDE_FORMS);
    const w = world(engine);
    const results = await resultsOf(engine);
    expect(results).toHaveLength(OUTSIDE_FORMS({ cwd: engine.cwd, root: w.root }).length);
    for (const text of results) {
      expect(text).toMatch(
        /is refused: .* is outside the workspace \(.*--add-dir\); auto mode touches files outside it only when --add-dir or a permission rule allows it\. Do not retry it/,
      );
      expect(text).not.toContain('OUTSIDE-CONTENT');
      expect(text).not.toMatch(/absolute|call again with/i);
    }
    // `../x` and the absolute form get the same answer.
    expect(results[0]).toBe(results[1]);
    expect(results[2]).toBe(results[0]);
    expect(results[4]).toBe(results[5]);
    expect(existsSync(join(w.outside, 'new.txt'))).toBe(false);
    expect(existsSync(join(w.outside, 'made-by-link.txt'))).toBe(false);
    expect(
      engine
        .eventsOf('approval_decision')
        .every((e) => e.decision === 'deny' && e.by === 'outside the workspace (auto mode)'),
    ).toBe(true);
  });

  it('refuses sensitive files, also through an innocent-looking link, and leaves them unchanged', async () => {
    const engine = engineFor('auto', () => SENSITIVE_FORMS);
    const w = world(engine);
    const results = await resultsOf(engine);
    expect(results).toHaveLength(SENSITIVE_FORMS.length);
    for (const text of results) {
      expect(text).toMatch(
        /is refused: .* may hold secrets \(keys, passwords, credentials\); auto mode reads or writes such files only when a permission rule allows it/,
      );
      expect(text).not.toMatch(/ENV-SECRET|KEY-SECRET/);
    }
    expect(results[1]).toContain(`Read(${join(engine.cwd, '.env')})`);
    expect(existsSync(join(engine.cwd, '.env.production'))).toBe(false);
    expect(existsSync(join(w.root, 'work', '.env'))).toBe(true);
  });

  // Deliberately changed: of the session, only its scratch folder is part of the workspace; the journal beside it is
  // outside (docs/sessions.md, "The scratch folder").
  it("works in cwd, --add-dir folders and the session's scratch folder (not the journal), whichever form names them", async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'jarvis-ws-')));
    const dirs = { home: join(root, 'home'), cwd: join(root, 'work') };
    const added = join(root, 'added');
    mkdirSync(added);
    mkdirSync(dirs.cwd);
    writeFileSync(join(dirs.cwd, 'a.txt'), 'INSIDE-CONTENT\n');
    writeFileSync(join(added, 'notes.txt'), 'ADDED-CONTENT\n');
    const saved = (engine: EngineHarness) => join(engine.runtime.session.scratchDir, 'tool-outputs', 'saved.txt');
    const engine: EngineHarness = makeEngine({
      mode: 'auto',
      tools: fileTools,
      nonInteractive: true,
      dirs,
      additionalDirs: [added],
      responses: (_req, index) =>
        index === 0
          ? {
              toolCalls: [
                { id: 'c0', name: 'Read', arguments: { path: 'a.txt' } },
                { id: 'c1', name: 'Read', arguments: { path: '../added/notes.txt' } },
                { id: 'c2', name: 'Read', arguments: { path: join(added, 'notes.txt') } },
                { id: 'c3', name: 'Write', arguments: { path: '../added/new.txt', content: 'made' } },
                { id: 'c4', name: 'Read', arguments: { path: saved(engine) } },
                { id: 'c5', name: 'Read', arguments: { path: engine.runtime.session.journalPath } },
                {
                  id: 'c6',
                  name: 'Write',
                  arguments: { path: engine.runtime.session.journalPath, content: '{"v":1,"ts":1,"type":"mode"}' },
                },
              ],
            }
          : { text: 'done' },
    });
    mkdirSync(dirname(saved(engine)), { recursive: true });
    writeFileSync(saved(engine), 'SAVED-OUTPUT\n');
    const results = await resultsOf(engine);
    expect(results[0]).toContain('INSIDE-CONTENT');
    expect(results[1]).toContain('ADDED-CONTENT');
    expect(results[2]).toContain('ADDED-CONTENT');
    expect(results[3]).not.toContain('refused');
    expect(existsSync(join(added, 'new.txt'))).toBe(true);
    expect(results[4]).toContain('SAVED-OUTPUT');
    expect(results[5]).toContain('outside the workspace');
    expect(results[6]).toContain('outside the workspace');
    expect(readFileSync(engine.runtime.session.journalPath, 'utf8')).not.toContain('"type":"mode"}');
  });

  it('reads (never writes) the folder of a loaded skill, whose instructions point at files beside them', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'jarvis-ws-')));
    const skillDir = join(root, 'home', 'skills', 'review');
    mkdirSync(skillDir, { recursive: true });
    writeFileSync(
      join(skillDir, 'SKILL.md'),
      '---\nname: review\ndescription: Reviews.\n---\nRead checklist.md beside this file.\n',
    );
    writeFileSync(join(skillDir, 'checklist.md'), 'CHECKLIST-CONTENT\n');
    const skill: Skill = {
      name: 'review',
      description: 'Reviews.',
      type: 'prompt',
      disableModelInvocation: false,
      arguments: [],
      body: 'Read checklist.md',
      dir: skillDir,
      path: join(skillDir, 'SKILL.md'),
      source: 'user',
    };
    const engine = makeEngine({
      mode: 'auto',
      tools: fileTools,
      nonInteractive: true,
      dirs: { home: join(root, 'home'), cwd: join(root, 'work') },
      skills: new SkillCatalog([skill]),
      responses: (_req, index) =>
        index === 0
          ? {
              toolCalls: [
                { id: 'c0', name: 'Read', arguments: { path: join(skillDir, 'checklist.md') } },
                { id: 'c1', name: 'Write', arguments: { path: join(skillDir, 'checklist.md'), content: 'changed' } },
              ],
            }
          : { text: 'done' },
    });
    const results = await resultsOf(engine);
    expect(results[0]).toContain('CHECKLIST-CONTENT');
    expect(results[1]).toContain('is outside the workspace');
  });

  it('an allow rule lets auto mode read a named sensitive file and an outside folder; nothing else', async () => {
    const rules: PermissionRule[] = [
      { decision: 'allow', pattern: 'Read(**/.env)' },
      { decision: 'allow', pattern: 'Read(../outside/**)' },
    ];
    const engine = engineFor(
      'auto',
      () => [
        { name: 'Read', arguments: { path: '.env' } },
        { name: 'Read', arguments: { path: '../outside/secret.txt' } },
        { name: 'Write', arguments: { path: '.env', content: 'x' } },
        { name: 'Read', arguments: { path: 'keys/id_rsa' } },
      ],
      { rules },
    );
    world(engine);
    const results = await resultsOf(engine);
    expect(results[0]).toContain('ENV-SECRET');
    expect(results[1]).toContain('OUTSIDE-CONTENT');
    expect(results[2]).toContain('is refused');
    expect(results[3]).toContain('is refused');
  });

  it('an extension cannot lift the refusal (only a permission rule can)', async () => {
    const engine = engineFor('auto', () => [{ name: 'Read', arguments: { path: '.env' } }], {
      gateHandlers: [{ name: 'lenient', beforeToolCall: () => ({ approval: 'allow', reason: 'trust me' }) }],
    });
    world(engine);
    const [text] = await resultsOf(engine);
    expect(text).toContain('is refused');
    expect(text).not.toContain('ENV-SECRET');
  });
});

describe('manual and yolo mode (someone to ask)', () => {
  it.each<PermissionMode>(['manual', 'yolo'])(
    '%s asks, with one reason for ../x, the absolute path and a link out',
    async (mode) => {
      const engine = engineFor(
        mode,
        (w) => [
          { name: 'Read', arguments: { path: '../outside/secret.txt' } },
          { name: 'Read', arguments: { path: join(w.root, 'outside', 'secret.txt') } },
          { name: 'Read', arguments: { path: 'link-out.txt' } },
          { name: 'Read', arguments: { path: '.env' } },
          { name: 'Read', arguments: { path: 'a.txt' } },
        ],
        { answer: () => ({ decision: 'reject' }) },
      );
      const w = world(engine);
      await resultsOf(engine);
      const secret = join(w.outside, 'secret.txt');
      // The first rejection (no feedback) stops the step, so later calls are not asked about.
      expect(engine.approvals.map((a) => [a.subject, a.reason])).toEqual([
        [
          `Read(${secret})`,
          `${secret} is outside the workspace (${engine.cwd}, ${engine.runtime.session.scratchDir}; more folders can be added with --add-dir)`,
        ],
      ]);
    },
  );

  it.each<PermissionMode>(['manual', 'yolo'])(
    '%s asks for each guarded path and runs what the user approves',
    async (mode) => {
      const engine = engineFor(
        mode,
        (w) => [
          { name: 'Read', arguments: { path: '../outside/secret.txt' } },
          { name: 'Read', arguments: { path: join(w.root, 'outside', 'secret.txt') } },
          { name: 'Read', arguments: { path: 'config.txt' } },
          { name: 'Read', arguments: { path: 'a.txt' } },
        ],
        { answer: () => ({ decision: 'approve' }) },
      );
      world(engine);
      const results = await resultsOf(engine);
      expect(engine.approvals.map((a) => a.reason)).toEqual([
        expect.stringContaining('is outside the workspace'),
        expect.stringContaining('is outside the workspace'),
        `${join(engine.cwd, '.env')} may hold secrets`,
      ]);
      expect(results[0]).toContain('OUTSIDE-CONTENT');
      expect(results[2]).toContain('ENV-SECRET');
      expect(results[3]).toContain('INSIDE-CONTENT');
    },
  );

  it('"approve for this session" on a sensitive file remembers that file only', async () => {
    const engine = engineFor(
      'manual',
      () => [
        { name: 'Read', arguments: { path: '.env' } },
        { name: 'Read', arguments: { path: '.env' } },
        { name: 'Read', arguments: { path: 'keys/id_rsa' } },
      ],
      {
        answer: (r) =>
          r.subject.endsWith('.env)') ? { decision: 'approve_session' } : { decision: 'reject', feedback: 'no' },
      },
    );
    world(engine);
    await resultsOf(engine);
    expect(engine.approvals.map((a) => [a.subject, a.sessionPattern])).toEqual([
      [`Read(${join(engine.cwd, '.env')})`, `Read(${join(engine.cwd, '.env')})`],
      [`Read(${join(engine.cwd, 'keys', 'id_rsa')})`, `Read(${join(engine.cwd, 'keys', 'id_rsa')})`],
    ]);
  });
});
