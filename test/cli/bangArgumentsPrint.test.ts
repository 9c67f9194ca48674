// Hostile arguments to a plugin command through the built CLI (docs/plugins.md, "Arguments in !`cmd` lines"):
// `jarvis -p '/say:it $(touch canary)…'` with the mock model, as root and as an unprivileged user. The command's
// `` !`cmd` `` lines put the arguments in double quotes, single quotes and outside quotes; what the model receives
// is the arguments printed back as text, and no canary exists. The same line with a plain argument runs as before.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handOver, launcherFor, sandboxTestUsers, shareWithUsers } from '../helpers/sandboxUsers';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis } from '../helpers/cli';
import { tempDir } from '../helpers/files';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';

let model: MockModelServer;
beforeAll(async () => {
  model = await startMockModelServer();
});
afterAll(async () => {
  await model.close();
});

const SAY = `---
description: Repeat what the user said
allowed-tools: Bash(echo:*), Bash(printf:*)
---
Double: !\`echo "You said: $ARGUMENTS"\`
Single: !\`echo 'first word: $1'\`
Bare: !\`printf '%s|' $2 $3\`
Arithmetic: !\`echo $(( $4 + 1 ))\`
`;

function pluginFolder(): string {
  const root = join(tempDir(), 'say');
  mkdirSync(join(root, '.claude-plugin'), { recursive: true });
  mkdirSync(join(root, 'commands'), { recursive: true });
  writeFileSync(join(root, '.claude-plugin/plugin.json'), JSON.stringify({ name: 'say', version: '1.0.0' }));
  writeFileSync(join(root, 'commands/it.md'), SAY);
  shareWithUsers(root);
  return root;
}

function lastUserText(): string {
  const messages = model.requests[model.requests.length - 1].body.messages as Array<{ role: string; content: unknown }>;
  const last = messages.filter((m) => m.role === 'user').pop()!;
  return typeof last.content === 'string' ? last.content : JSON.stringify(last.content);
}

describe.each(sandboxTestUsers('bang-args-cli'))(
  'hostile arguments to a plugin command through jarvis -p, as $label',
  { timeout: 60_000 },
  (user) => {
    it('no part of the arguments runs; the lines print them as text; a plain call works', async () => {
      const dirs = makeCliDirs();
      shareWithUsers(dirs.home);
      shareWithUsers(dirs.cwd);
      const env = { ...cliEnv(dirs, mockModelEnv(model.baseUrlFor('openai'))), USER: user.name };
      const plugin = pluginFolder();
      handOver(user, dirs.home);
      handOver(user, dirs.cwd);
      const installed = await runJarvis(['plugin', 'install', plugin], {
        env,
        cwd: dirs.cwd,
        launcher: launcherFor(user),
      });
      expect(installed.code, installed.stderr).toBe(0);

      const canary = join(dirs.cwd, 'canary');
      const args = `$(touch ${canary}) \`touch ${canary}\`;touch${'${IFS}'}${canary} 'x;touch${'${IFS}'}${canary};' a[$(touch${'${IFS}'}${canary})]`;
      model.push({ text: 'Done.' });
      const r = await runJarvis(['-p', `/say:it ${args}`], {
        env,
        cwd: dirs.cwd,
        launcher: launcherFor(user),
        timeoutMs: 45_000,
      });
      expect(r.code, r.stderr).toBe(0);
      expect(existsSync(canary)).toBe(false);
      expect(readdirSync(dirs.cwd)).toEqual([]);
      const sent = lastUserText();
      expect(sent).toContain(`You said: ${args}`);
      expect(sent).toContain(`first word: $(touch`);
      expect(sent).toContain(`Bare: Exit code: 0\n<stdout>\n${canary})|\`touch|\n`);
      expect(sent).toMatch(/\$4 must be a whole number there \(arithmetic evaluates it as code\)/);

      model.push({ text: 'Done.' });
      const plain = await runJarvis(['-p', '/say:it hello big world 41'], {
        env,
        cwd: dirs.cwd,
        launcher: launcherFor(user),
      });
      expect(plain.code, plain.stderr).toBe(0);
      const ok = lastUserText();
      expect(ok).toContain('You said: hello big world 41');
      expect(ok).toContain('first word: hello');
      expect(ok).toContain('big|world|');
      expect(ok).toMatch(/Arithmetic: Exit code: 0\n<stdout>\n42\n/);
    });
  },
);
