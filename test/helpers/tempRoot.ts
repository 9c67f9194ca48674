// Loaded before every test file (vitest setupFiles). Each test runs with its own empty TMPDIR, removed
// after the test, so every helper that makes folders with os.tmpdir() cleans up without bookkeeping;
// what a file makes outside a test (beforeAll, module scope) lives in the file's TMPDIR, removed after
// the file. Child processes inherit TMPDIR, so what they leave behind goes too — which is why a process
// shared by several tests (a browser, a server) must start in beforeAll, never lazily inside the first test.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach } from 'vitest';

const systemTmp = tmpdir();
const fileRoot = mkdtempSync(join(systemTmp, 'jarvis-test-'));
process.env.TMPDIR = fileRoot;
let testRoot: string | undefined;

function remove(dir: string): void {
  // A process a test started may still be writing there; retry, and never fail a test over cleanup.
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
  } catch {
    // left for the operating system's own temp cleaning
  }
}

beforeEach(() => {
  testRoot = mkdtempSync(join(fileRoot, 'test-'));
  process.env.TMPDIR = testRoot;
});

afterEach(() => {
  process.env.TMPDIR = fileRoot;
  if (testRoot) remove(testRoot);
  testRoot = undefined;
});

afterAll(() => {
  process.env.TMPDIR = systemTmp;
  remove(fileRoot);
});
