// `/remote` in a real browser (docs/remote.md, issue 49's Must-show): a session started in the terminal UI (the built
// CLI in tmux) is opened in the system Chromium from the one-time link `/remote` printed (read off its QR code, as a
// phone would), and its approvals are answered from either place. Approved in the browser: the terminal's panel
// closes and says the browser's client answered. Approved in the terminal: the browser's panel closes and names the
// terminal. Screenshots of both go to docs/web/.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedRequest, ScriptedTurn } from '../helpers/mockModelServer';
import { requireSystemPart } from '../helpers/requireAll';
import { decodeTextQr } from '../helpers/screenQr';
import { makeCliDirs, mockModelEnv, waitUntil } from '../helpers/cli';
import { startMockModelServer } from '../helpers/mockModelServer';
import { launchChromium, startWeb } from '../helpers/webProcess';
import { appsClosedAfterEach, send, tempDir } from '../ui/e2eHarness';
import { SHOTS } from '../helpers/screenshots';

const hasTmux = requireSystemPart('tmux', 'the terminal UI is tested inside tmux');
const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const start = appsClosedAfterEach();
let browser: Browser;
beforeAll(async () => {
  if (hasTmux) browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

function turnFor(req: RecordedRequest): ScriptedTurn {
  const messages = req.body.messages as Array<{ role: string; content: unknown }>;
  if (messages.at(-1)!.role === 'tool') return { text: 'The file is written.' };
  const text = JSON.stringify(messages.filter((m) => m.role === 'user').at(-1)?.content ?? '');
  const file = /write (\w+\.txt)/.exec(text);
  if (file) return { toolCalls: [{ name: 'Write', arguments: { path: file[1], content: `${file[1]} body\n` } }] };
  return { text: 'Hello from the terminal session.' };
}

describe.skipIf(!hasTmux)(
  '/remote in the browser: one session, two places (tmux + Chromium)',
  { timeout: 180_000 },
  () => {
    it('an approval answered in the browser closes the terminal panel, and the other way round', async () => {
      const home = tempDir('jarvis-remote-web-home-');
      const cwd = tempDir('jarvis-remote-web-cwd-');
      made.push(home, cwd);
      const app = await start({ home, cwd, script: turnFor });
      const { tmux } = app;
      send(app, 'hello from the desk');
      await tmux.waitFor('Hello from the terminal session.');
      send(app, '/remote --port 0');
      const screen = await tmux.waitFor(/#login=/);
      await tmux.waitFor(/▀/);
      const link = decodeTextQr(tmux.screen());
      expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#login=[A-Za-z0-9_-]{20,}$/);
      expect(screen.replace(/\s+/g, ' ')).toContain(link);

      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      page.setDefaultTimeout(20_000);
      page.on('pageerror', (e) => process.stderr.write(`[page error] ${e.message}\n`));
      await page.goto(link!);
      await page.getByRole('button', { name: /^hello from the desk/ }).click();
      await page.getByText('Hello from the terminal session.').waitFor();

      // 1. Asked in the terminal, approved in the browser.
      send(app, 'please write one.txt');
      await tmux.waitFor('Approval needed');
      const panel = page.getByRole('region', { name: 'Approval: Write' });
      await panel.waitFor();
      await page.getByText('please write one.txt').first().waitFor();
      await page.screenshot({ path: join(SHOTS, 'remote-approval-browser.png') });
      await panel.getByRole('button', { name: 'Approve once' }).click();
      const answered = await tmux.waitFor(/approved\s+from\s+the\s+browser\s+\(client\s+web:[\w-]+\)/);
      expect(answered).not.toContain('Approval needed');
      await tmux.waitFor('The file is written.');
      await panel.waitFor({ state: 'detached' });
      expect(readFileSync(join(cwd, 'one.txt'), 'utf8')).toBe('one.txt body\n');

      // 2. Asked again, approved in the terminal: the browser's panel closes and names the terminal.
      send(app, 'please write two.txt');
      await tmux.waitFor('Approval needed');
      await panel.waitFor();
      tmux.keys('1');
      await panel.waitFor({ state: 'detached' });
      const elsewhere = page.getByRole('status').filter({ hasText: 'by the terminal' });
      await elsewhere.waitFor();
      // The panel names the tool and who answered (web/src/state/sessionEvents.ts).
      expect(await elsewhere.textContent()).toContain('Write: approved by the terminal.');
      await page.getByText('The file is written.').nth(1).waitFor();
      // The terminal's turn ended for the browser too (prompt.completed): nothing shows as working.
      await page.getByText(/working…/).waitFor({ state: 'detached' });
      await page.screenshot({ path: join(SHOTS, 'remote-answered-in-terminal.png') });
      expect(readFileSync(join(cwd, 'two.txt'), 'utf8')).toBe('two.txt body\n');
      await page.close();
    });
  },
);

describe('jarvis web and the QR code', { timeout: 60_000 }, () => {
  it('prints its one-time link as a QR code too (plain characters on a pipe)', async () => {
    const model = await startMockModelServer({ turns: [] });
    const dirs = makeCliDirs();
    const served = await startWeb(dirs, mockModelEnv(model.baseUrlFor('openai')));
    try {
      await waitUntil(() => decodeTextQr(served.stdout()) !== undefined, 10_000, 'the QR code on stdout');
      expect(decodeTextQr(served.stdout())).toBe(served.link);
      expect(served.stdout()).not.toContain('\x1b[');
    } finally {
      await served.stop();
      await model.close();
    }
  });
});
