// The attack corpus end to end (docs/trust-boundary.md): a fixture of test/tools/boundary/attackCorpus.ts as the
// built CLI sees it — the workspace as the working folder, the fixture's home as HOME with JARVIS_CODE_HOME inside
// it — and the rows that end-to-end tests replay (the working-folder and git rows).
import { spawn } from 'node:child_process';
import { ATTACKS, fixtureEnv, type AttackCase, type AttackFixture } from '../tools/boundary/attackCorpus';
import { cliEnv, mockModelEnv } from './cli';
import type { MockModelServer } from './mockModelServer';

/** The rows replayed through print mode and ACP: those about the working folder and about git. */
export const E2E_ATTACKS: AttackCase[] = ATTACKS.filter((c) => c.bullet === 'cwd' || c.bullet === 'git');

/** Jarvis's environment for a fixture: the mock model, the fixture's home and JARVIS_CODE_HOME, MARKS and OUT. */
export function fixtureCliEnv(fx: AttackFixture, baseUrl: string): NodeJS.ProcessEnv {
  return { ...cliEnv({ home: fx.jarvis, cwd: fx.ws }, mockModelEnv(baseUrl)), ...fixtureEnv(fx) };
}

/** The Bash call a prompt-injected model makes for a row. */
export function attackCall(c: AttackCase, fx: AttackFixture, id: string) {
  const cwd = c.cwd?.(fx);
  return { id, name: 'Bash', arguments: { command: c.attack, ...(cwd ? { cwd } : {}) } };
}

/** What the user does next, outside any sandbox (`git status`, a login shell). */
export function runLater(c: AttackCase, fx: AttackFixture): Promise<void> {
  if (!c.later) return Promise.resolve();
  const child = spawn('bash', ['-c', c.later], { cwd: fx.ws, env: fixtureEnv(fx), stdio: 'ignore' });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', () => resolve());
  });
}

/** The text of the tool result the model got back in the request after `before` (the attack's result). */
export function attackResult(server: MockModelServer, before: number): string {
  const messages = server.requests[before + 1].body.messages as Array<{ role: string; content: unknown }>;
  return String(messages.find((m) => m.role === 'tool')?.content);
}
