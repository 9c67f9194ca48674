// `jarvis policy test`: the decision, the deciding rule with its file and line, and for Bash the parsed
// commands, for users and for scripts (exit status and --json).
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, makeCliDirs, runJarvis, type CliDirs } from '../helpers/cli';

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
    expect(JSON.parse(r.stdout)).toEqual({
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
