// `jarvis policy test`: the decision, the deciding rule with its file and line, and for Bash the parsed
// commands, for users and for scripts (exit status and --json).
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, makeCliDirs, runJarvis, type CliDirs } from '../helpers/cli';
import { sandboxAvailable } from '../helpers/sandboxAvailable';

const CONFIG = `default_permission_mode = "manual"

[[permission.rules]]
decision = "deny"
pattern = "Bash(rm *)"
reason = "use trash instead"

[[permission.rules]]
decision = "allow"
pattern = "Bash(git *)"
`;

let dirs: CliDirs;
beforeAll(() => {
  dirs = makeCliDirs();
  writeFileSync(join(dirs.home, 'config.toml'), CONFIG);
});

function policy(...args: string[]) {
  return runJarvis(['policy', 'test', ...args], { env: cliEnv(dirs), cwd: dirs.cwd });
}

describe('jarvis policy test', () => {
  it('names the deny rule, its line and the part it refused, exit 4', async () => {
    const r = await policy('Bash(echo hi && rm -f x)');
    expect(r.stdout).toBe(
      [
        'call      Bash(echo hi && rm -f x)',
        'mode      manual',
        'decision  deny',
        'by        rule deny Bash(rm *) (~/config.toml:3)',
        'why       it runs rm -f x; use trash instead',
        'commands  echo hi',
        '          rm -f x',
        '',
      ].join('\n'),
    );
    expect(r.code).toBe(4);
  });

  it('an allow rule that does not cover every command leaves the line to ask, exit 3', async () => {
    const r = await policy('Bash(git status; touch PWNED)');
    expect(r.stdout).toContain('decision  ask\n');
    expect(r.stdout).toContain('why       the allow rules do not cover touch PWNED\n');
    expect(r.stdout).toContain('commands  git status\n          touch PWNED\n');
    expect(r.code).toBe(3);
  });

  it('shows a line with a continuation as bash reads it, and the deny rule holds against that reading', async () => {
    const r = await policy('Bash(r\\\nm -f x)');
    expect(r.stdout).toContain('decision  deny\n');
    expect(r.stdout).toContain('why       it runs rm -f x; use trash instead\n');
    expect(r.stdout).toContain('reads as  rm -f x\n');
    expect(r.code).toBe(4);
    const git = await policy("Bash(git -c core.pager='touch PWNED' log)", '--json');
    expect(JSON.parse(git.stdout)).toMatchObject({
      decision: 'ask',
      reason: expect.stringMatching(/^git -c core\.pager/),
    });
  });

  it('a covered line is allowed, exit 0; --json prints one object for scripts', async () => {
    const r = await policy('Bash(git status && git log -1)', '--json');
    expect(r.code).toBe(0);
    const { sandbox, ...decision } = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(sandbox).toMatchObject({ state: expect.stringMatching(/^(sandboxed|unavailable)$/) });
    expect(decision).toEqual({
      call: 'Bash(git status && git log -1)',
      mode: 'manual',
      decision: 'allow',
      by: 'rule allow Bash(git *) (~/config.toml:8)',
      commands: ['git status', 'git log -1'],
    });
  });

  it('decides in the mode given: unknowable programs are refused in yolo, plan mode limits writes', async () => {
    const yolo = await policy('Bash(RM=rm; $RM -f x)', '--mode', 'yolo');
    expect(yolo.code).toBe(4);
    expect(yolo.stdout).toContain(
      'why       the program $RM is known only when the command runs, so the Bash deny rules cannot be checked against it',
    );
    const plan = await policy('Write(notes.md)', '--mode', 'plan');
    expect(plan.code).toBe(4);
    expect(plan.stdout).toContain(`call      Write(${join(dirs.cwd, 'notes.md')})`);
    expect(plan.stdout).toContain('by        plan mode');
    expect((await policy('Read(.env)')).stdout).toContain('by        sensitive file');
  });

  it('paths outside the workspace ask in manual mode and are refused in auto mode unless --add-dir names them', async () => {
    const elsewhere = join(dirname(dirs.cwd), 'elsewhere', 'a.txt');
    const manual = await policy('Read(../elsewhere/a.txt)');
    expect(manual.code).toBe(3);
    expect(manual.stdout).toContain(`call      Read(${elsewhere})\n`);
    expect(manual.stdout).toContain('by        outside the workspace\n');
    const auto = await policy(`Read(${elsewhere})`, '--mode', 'auto');
    expect(auto.code).toBe(4);
    expect(auto.stdout).toContain('by        outside the workspace (auto mode)\n');
    expect((await policy('Read(../elsewhere/a.txt)', '--mode', 'auto', '--add-dir', '../elsewhere')).code).toBe(0);
    const env = await policy('Write(.env)', '--mode', 'auto');
    expect(env.code).toBe(4);
    expect(env.stdout).toContain('by        sensitive file (auto mode)\n');
  });

  it('refuses what it cannot read with a specific message, exit 2', async () => {
    const unknown = await policy('Frobnicate(x)');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('there is no tool named "Frobnicate"');
    const badMode = await policy('Bash(ls)', '--mode', 'sometimes');
    expect(badMode.code).toBe(2);
    expect(badMode.stderr).toContain('Allowed choices are manual, yolo, auto, plan');
  });

  it('a broken config.toml is reported, not guessed around, exit 1', async () => {
    const broken = makeCliDirs();
    writeFileSync(join(broken.home, 'config.toml'), '[[permission.rules]]\ndecision = "maybe"\npattern = "Bash"\n');
    const r = await runJarvis(['policy', 'test', 'Bash(ls)'], { env: cliEnv(broken), cwd: broken.cwd });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('invalid configuration');
    expect(r.stderr).toContain('decision');
  });
});

describe('jarvis policy test: the command sandbox', () => {
  // No rule about rm here: auto mode allows rm -rf ~, and only the sandbox stands between it and the home folder.
  const ALLOW_GIT = '[[permission.rules]]\ndecision = "allow"\npattern = "Bash(git *)"\n';
  function policyIn(config: string, ...args: string[]) {
    const d = makeCliDirs();
    writeFileSync(join(d.home, 'config.toml'), config);
    return { dirs: d, run: runJarvis(['policy', 'test', ...args], { env: cliEnv(d), cwd: d.cwd }) };
  }

  it.runIf(sandboxAvailable())(
    'auto mode allows rm -rf ~ and says it runs sandboxed, what the sandbox allows, and that unsandboxed it is refused',
    async () => {
      const { dirs: d, run } = policyIn(ALLOW_GIT, 'Bash(rm -rf ~)', '--mode', 'auto');
      const r = await run;
      expect(r.code).toBe(0);
      const rows = r.stdout.split('\n');
      expect(rows).toContain('decision  allow');
      const sandbox = rows.find((l) => l.startsWith('sandbox   '));
      expect(sandbox).toContain(`runs sandboxed: it can write only ${d.cwd}, the session's folder and a private /tmp`);
      expect(sandbox).toContain('the rest of the file system is read-only');
      expect(sandbox).toContain('network off');
      expect(rows.find((l) => l.startsWith('outside   '))).toMatch(
        /^outside {3}asked with dangerously_unsandboxed: deny by outside the sandbox \(auto mode\)/,
      );
      // An allow rule that covers the command lets it leave the sandbox, with the user's full access: said so.
      const git = await policyIn(ALLOW_GIT, 'Bash(git push)', '--mode', 'auto', '--json').run;
      expect(JSON.parse(git.stdout).sandbox).toMatchObject({
        state: 'sandboxed',
        unsandboxed: { decision: 'allow', by: 'rule allow Bash(git *) (~/config.toml:1)' },
      });
      const text = await policyIn(ALLOW_GIT, 'Bash(git push)', '--mode', 'auto').run;
      expect(text.stdout).toContain(
        'outside   asked with dangerously_unsandboxed: allow by rule allow Bash(git *) (~/config.toml:1), and it would run with your full access',
      );
    },
  );

  it('with the sandbox switched off the command runs with full access, and a denied command gets no sandbox row', async () => {
    const off = `${CONFIG}\n[sandbox]\nenabled = false\n`;
    const r = await policyIn(off, 'Bash(ls ~)', '--mode', 'auto').run;
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('sandbox   off ([sandbox] enabled = false): the command runs with your full access\n');
    expect(r.stdout).not.toContain('outside');
    const denied = await policyIn(off, 'Bash(echo hi && rm -f x)', '--mode', 'auto').run;
    expect(denied.code).toBe(4);
    expect(denied.stdout).not.toContain('sandbox');
  });
});
