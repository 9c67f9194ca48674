// What a new user's first mistyped or exploratory commands get from the built CLI: a misspelt subcommand names the
// closest one (`jarvis doctr` → doctor), a prompt typed without -p says how to send it, and `jarvis -p --help` says
// that print mode runs in auto permission mode and what that allows.
import { describe, expect, it } from 'vitest';
import { cliEnv, makeCliDirs, runJarvis } from '../helpers/cli';

describe('first words at the command line', () => {
  it.each([
    ['doctr', 'doctor'],
    ['sesions', 'sessions'],
    ['expot', 'export'],
    ['polcy', 'policy'],
    ['mcpp', 'mcp'],
    ['plugn', 'plugin'],
  ])('`jarvis %s` is a usage error that suggests `jarvis %s`', async (typed, meant) => {
    const dirs = makeCliDirs();
    const r = await runJarvis([typed], { env: cliEnv(dirs), cwd: dirs.cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`jarvis: unknown command '${typed}'. Did you mean jarvis ${meant}?`);
    expect(r.stdout).toBe('');
  });

  it('a word close to no command gets no guess; a prompt without -p is told how to send it', async () => {
    const dirs = makeCliDirs();
    const far = await runJarvis(['frobnicate'], { env: cliEnv(dirs), cwd: dirs.cwd });
    expect(far.code).toBe(2);
    expect(far.stderr).toBe("jarvis: unknown command 'frobnicate'. Run jarvis --help to see the commands.\n");
    const prompt = await runJarvis(['explain this code'], { env: cliEnv(dirs), cwd: dirs.cwd });
    expect(prompt.code).toBe(2);
    expect(prompt.stderr).toContain('To send it as a prompt, run jarvis -p "explain this code"');
  });

  it('`jarvis -p --help` says print mode runs in auto mode and what that refuses', async () => {
    const dirs = makeCliDirs();
    const r = await runJarvis(['-p', '--help'], { env: cliEnv(dirs), cwd: dirs.cwd });
    expect(r.code).toBe(0);
    const help = r.stdout.replace(/\s+/g, ' ');
    expect(help).toContain('print mode, always in auto permission mode');
    expect(help).toContain('Print mode (-p) always runs in auto permission mode');
    expect(help).toContain('deny rules still refuse');
    expect(help).toContain('paths outside the workspace (this folder and --add-dir folders)');
    expect(help).toContain('--yolo and --auto are accepted and change nothing there; --plan is refused');
    // Fits an 80-column terminal.
    for (const line of r.stdout.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
  });
});
