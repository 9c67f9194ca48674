// A user's setup written for another agent, laid out as on their machine (test/fixtures/<peer>/{project,home}): the
// fixture's project/ becomes the working folder and its home/ the user's home folder, apart from Jarvis's data
// folder; and a mock model to run against. Used by the compatibility tests (docs/compatibility.md).
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { makeCliDirs, type CliDirs } from './cli';
import { startMockModelServer, type MockModelServer } from './mockModelServer';

export interface FixtureUserSetup {
  model: MockModelServer;
  dirs: CliDirs;
  /** The user's home folder (with `~/.claude/`, `~/.codex/`, …). */
  userHome: string;
}

export async function fixtureUserSetup(fixture: string): Promise<FixtureUserSetup> {
  const model = await startMockModelServer();
  const dirs = makeCliDirs();
  const userHome = join(dirs.cwd, '..', 'user');
  cpSync(join(fixture, 'project'), dirs.cwd, { recursive: true });
  cpSync(join(fixture, 'home'), userHome, { recursive: true });
  return { model, dirs, userHome };
}
