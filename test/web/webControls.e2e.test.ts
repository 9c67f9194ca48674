// The web UI's prompt help, progress and controls (docs/web.md "Prompt input", "Progress", "Controls"), on the built
// CLI (`jarvis web`) against the scripted model, in the system Chromium: `@` and `/` completion with the keyboard,
// an attached image reaching the model, the to-do list, goal and subagents drawn from their events, the permission
// mode and plan switches, the model picked from the config's list (refused during a turn, then sent to), undo, fork, archive, the theme switch, and a notification when a
// turn ends while the tab is not looked at. Screenshots go to docs/web/.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCliDirs, mockModelEnv, writeTwoModelConfig, type CliDirs } from '../helpers/cli';
import { delegateTurn, turnPosition } from '../helpers/liveTurns';
import { startMockModelServer, type MockModelServer, type ScriptedTurn } from '../helpers/mockModelServer';
import { launchChromium, newLink, startWeb, type WebServed } from '../helpers/webProcess';
import { SHOTS } from '../helpers/screenshots';

let model: MockModelServer;
let dirs: CliDirs;
let served: WebServed;
let browser: Browser;
let release: () => void = () => undefined;
let gate = Promise.resolve();

// A 2×2 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFElEQVR4nGP4z8DAAMIM/////w8AH+4F+7C4l8kAAAAASUVORK5CYII=',
  'base64',
);

function turnFor(messages: Array<{ role: string; content: unknown }>): ScriptedTurn {
  const { text, step } = turnPosition(messages);
  // The compaction's summary request carries the whole conversation.
  if (text.includes('<conversation>')) return { text: 'Summary: a plan, two halves, a file written.' };
  if (text.includes('plan the work'))
    return step === 0
      ? {
          toolCalls: [
            {
              name: 'TodoList',
              arguments: {
                todos: [
                  { title: 'Read the schema', status: 'done' },
                  { title: 'Write the migration', status: 'in_progress' },
                  { title: 'Run the tests', status: 'pending' },
                ],
              },
            },
            { name: 'CreateGoal', arguments: { objective: 'Ship the migration', completionCriterion: 'tests pass' } },
          ],
        }
      : step === 2
        ? { toolCalls: [{ name: 'UpdateGoal', arguments: { status: 'complete', summary: 'migrated' } }] }
        : { text: 'planned' };
  if (text.includes('delegate the halves')) return delegateTurn(step);
  // The prompt may be followed by a reminder of its own (plan mode turned off): read every message since the answer.
  const fresh = JSON.stringify(messages.slice(messages.map((m) => m.role).lastIndexOf('assistant') + 1));
  if (fresh.includes('hold the turn')) return { before: () => gate, text: 'held' };
  if (text.includes('Do task')) return { text: 'half done' };
  if (text.includes('write the file'))
    return step === 0
      ? { toolCalls: [{ name: 'Write', arguments: { path: 'made.txt', content: 'made\n' } }] }
      : { text: 'written' };
  return { text: `answer ${model.requests.length}` };
}

beforeAll(async () => {
  model = await startMockModelServer({
    script: (req) => turnFor(req.body.messages as Array<{ role: string; content: unknown }>),
  });
  dirs = makeCliDirs();
  mkdirSync(join(dirs.cwd, 'src'));
  mkdirSync(join(dirs.cwd, '.git'));
  writeFileSync(join(dirs.cwd, 'src', 'app.ts'), 'export const MARKER = "APP-FILE-MARKER";\n');
  mkdirSync(join(dirs.cwd, '.jarvis-code', 'skills', 'release-notes'), { recursive: true });
  writeFileSync(
    join(dirs.cwd, '.jarvis-code', 'skills', 'release-notes', 'SKILL.md'),
    '---\nname: release-notes\ndescription: Writes release notes\narguments: [version]\n---\nWrite SKILL-MARKER notes for $version.\n',
  );
  writeTwoModelConfig(dirs.home, model.baseUrlFor('openai'));
  served = await startWeb(dirs, mockModelEnv(model.baseUrlFor('openai')));
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await served?.stop();
  await model?.close();
});

const lastRequest = () => JSON.stringify(model.requests.at(-1)?.body ?? {});

async function send(page: Page, text: string): Promise<void> {
  const before = model.requests.length;
  const input = page.getByRole('textbox', { name: 'Prompt' });
  await input.fill(text);
  await input.press('Enter');
  await expect.poll(() => model.requests.length, { timeout: 15_000 }).toBeGreaterThan(before);
  await page.locator('.msg-assistant.streaming').waitFor({ state: 'detached' });
  await expect.poll(() => page.getByRole('button', { name: 'Stop' }).isVisible()).toBe(false);
}

describe('web UI prompt help, progress and controls', () => {
  it('completes, attaches, shows progress, switches, undoes, forks, archives, themes and notifies', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    // The notification API as the test sees it: granted, and every notification recorded; the tab "not looked at".
    await context.addInitScript({
      content: `(() => {
        const shown = [];
        window.__shown = shown;
        class Recorder {
          static permission = 'granted';
          static requestPermission() { return Promise.resolve('granted'); }
          constructor(title, opts) { shown.push({ title, body: opts.body }); }
        }
        window.Notification = Recorder;
        document.hasFocus = () => window.__focused ?? true;
      })()`,
    });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (e) => process.stderr.write(`[page error] ${e.message}\n`));
    await page.goto(await newLink(served));
    await page.getByRole('button', { name: 'New session' }).click();
    const input = page.getByRole('textbox', { name: 'Prompt' });
    await input.and(page.locator(':enabled')).waitFor();

    // `@` completes files with the keyboard: the list opens, Enter takes the option, the file reaches the model.
    await input.focus();
    await page.keyboard.type('look at @src/a');
    const options = page.getByRole('listbox', { name: 'Suggestions' }).getByRole('option');
    await expect.poll(() => options.allTextContents()).toEqual(['src/app.ts']);
    expect(await input.getAttribute('aria-expanded')).toBe('true');
    await page.screenshot({ path: join(SHOTS, 'completion-files-1280.png') });
    await page.keyboard.press('Enter');
    expect(await input.inputValue()).toBe('look at @src/app.ts ');
    expect(await input.getAttribute('aria-expanded')).toBe('false');
    await page.keyboard.press('Enter');
    await expect.poll(lastRequest).toContain('APP-FILE-MARKER');
    await page.locator('.msg-assistant.streaming').waitFor({ state: 'detached' });

    // `/` completes the session's skills with their argument hint; the skill runs.
    await input.focus();
    await page.keyboard.type('/rel');
    await expect.poll(() => options.allTextContents()).toEqual([expect.stringMatching(/^\/release-notes <version>/)]);
    await page.screenshot({ path: join(SHOTS, 'completion-commands-1280.png') });
    await page.keyboard.press('Tab');
    expect(await input.inputValue()).toBe('/release-notes ');
    await page.keyboard.type('3.1');
    await page.keyboard.press('Enter');
    await expect.poll(lastRequest).toContain('SKILL-MARKER notes for 3.1');
    await expect.poll(() => page.getByRole('button', { name: 'Stop' }).isVisible()).toBe(false);

    // An image attached with the picker shows as a chip and reaches the model.
    await page.locator('#attach-image').setInputFiles({ name: 'shot.png', mimeType: 'image/png', buffer: PNG });
    await page.getByRole('button', { name: /^Remove image 1 \(png/ }).waitFor();
    await send(page, 'what is in the picture?');
    expect(lastRequest()).toContain('data:image/png;base64,');
    expect(await page.getByRole('button', { name: /^Remove image/ }).count()).toBe(0);

    // The to-do list and the goal, then the subagents, drawn from their events.
    await send(page, 'plan the work');
    const progress = page.getByRole('complementary', { name: 'Progress' });
    await progress.getByRole('listitem', { name: 'Write the migration: in progress' }).waitFor();
    await progress.getByText('Ship the migration').waitFor();
    await progress.getByText('complete', { exact: true }).waitFor();
    await send(page, 'delegate the halves');
    await expect.poll(() => progress.locator('.subagent-completed').count()).toBe(2);
    await progress.getByText('first half').waitFor();
    await page.screenshot({ path: join(SHOTS, 'progress-1280.png') });

    // Permission mode and plan mode switch.
    const meta = page.locator('.meta');
    await page.getByLabel('Permission mode').selectOption('auto');
    await expect.poll(() => meta.textContent()).toContain('auto');
    await page.getByLabel('Plan mode').check();
    await expect.poll(() => meta.textContent()).toContain('plan');
    await page.getByLabel('Plan mode').uncheck();

    // Undo takes the last prompt back.
    const prompts = page.getByRole('article', { name: 'your prompt' });
    expect(await prompts.filter({ hasText: 'delegate the halves' }).count()).toBe(1);
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => prompts.filter({ hasText: 'delegate the halves' }).count()).toBe(0);
    expect(await prompts.filter({ hasText: 'plan the work' }).count()).toBe(1);

    // The model is picked from the config's list, the one in use selected and described; a switch while a turn runs
    // is refused with the server's reason; a switch with the keyboard after it sends the next request to the pick.
    const picker = page.getByRole('combobox', { name: 'Model', exact: true });
    await expect
      .poll(() => picker.locator('option').allTextContents())
      .toEqual(['mock-model (from JARVIS_MODEL_*)', 'fast — fast-model-v1', 'deep — Deep thinker']);
    expect(await picker.inputValue()).toBe('JARVIS_MODEL');
    expect(await picker.getAttribute('aria-describedby')).toBe('model-detail');
    await expect.poll(() => page.locator('#model-detail').textContent()).toContain('mock-model');
    gate = new Promise((r) => (release = r));
    const held = model.requests.length;
    await input.fill('hold the turn');
    await input.press('Enter');
    await expect.poll(() => model.requests.length).toBeGreaterThan(held);
    await picker.selectOption('deep');
    await page.getByRole('alert').filter({ hasText: 'cannot switch the model while a turn runs' }).waitFor();
    expect(await picker.inputValue()).toBe('JARVIS_MODEL');
    release();
    await expect.poll(() => page.getByRole('button', { name: 'Stop' }).isVisible()).toBe(false);
    await picker.focus();
    await page.keyboard.press('End');
    await expect
      .poll(() => page.locator('#model-detail').textContent())
      .toBe('gateway · deep-model-v2 · 180k context · thinking');
    expect(await picker.locator('option').allTextContents()).toEqual(['fast — fast-model-v1', 'deep — Deep thinker']);
    expect(await picker.inputValue()).toBe('deep');
    await page.screenshot({ path: join(SHOTS, 'controls-1280.png') });
    await send(page, 'who answers now?');
    expect((model.requests.at(-1)!.body as { model: string }).model).toBe('deep-model-v2');

    // A notification when a turn ends while the tab is not looked at (after the user turned them on).
    await page.getByRole('button', { name: 'Notify me' }).click();
    await page.getByText('Notifications are on.').waitFor();
    await page.evaluate('window.__focused = false');
    await send(page, 'one more thing');
    await expect
      .poll(() => page.evaluate('window.__shown'))
      .toContainEqual(expect.objectContaining({ title: 'Turn finished' }));
    // And when an approval waits (manual mode again: the Write asks).
    await page.getByLabel('Permission mode').selectOption('manual');
    await expect.poll(() => meta.textContent()).toContain('manual');
    await page.getByRole('textbox', { name: 'Prompt' }).fill('write the file');
    await page.getByRole('textbox', { name: 'Prompt' }).press('Enter');
    const approval = page.getByRole('region', { name: 'Approval: Write' });
    await approval.waitFor();
    await expect
      .poll(() => page.evaluate('window.__shown'))
      .toContainEqual(expect.objectContaining({ title: 'Approval waiting: Write' }));
    await page.evaluate('window.__focused = true');
    await approval.getByRole('button', { name: 'Approve once' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Stop' }).isVisible()).toBe(false);

    // Compact: the server compacts (the model is asked for the summary) and answers without an error.
    const requests = model.requests.length;
    const [compacted] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith(':compact')),
      page.getByRole('button', { name: 'Compact' }).click(),
    ]);
    const envelope = (await compacted.json()) as { code: number; msg: string };
    expect(envelope.code, envelope.msg).toBe(0);
    expect(model.requests.length).toBeGreaterThan(requests);
    expect(await page.getByRole('alert').filter({ hasText: 'compacting' }).count()).toBe(0);

    // Fork opens the copy; archive closes it and takes it off the list.
    const original = page.url();
    await page.getByRole('button', { name: 'Fork' }).click();
    await expect.poll(() => page.url()).not.toBe(original);
    const forked = /#s=(\w+)/.exec(page.url())![1];
    await page.getByRole('button', { name: 'Archive' }).click();
    await expect.poll(() => page.url()).not.toContain(forked);
    await expect.poll(() => page.locator(`#sessions [aria-current="true"]`).count()).toBe(0);

    // The theme switch: light, kept across a reload.
    await page.getByLabel('Theme', { exact: true }).selectOption('light');
    expect(await page.evaluate('document.documentElement.dataset.theme')).toBe('light');
    await page.goto(original);
    await page.reload();
    await expect.poll(() => page.evaluate('document.documentElement.dataset.theme')).toBe('light');
    await page.getByRole('complementary', { name: 'Progress' }).waitFor();
    await page.screenshot({ path: join(SHOTS, 'light-1280.png') });

    // The phone: progress and controls fit at 390×844.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('region', { name: 'Session controls' }).waitFor();
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    const box = (await page.getByRole('combobox', { name: 'Model', exact: true }).boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await page.screenshot({ path: join(SHOTS, 'phone-390-controls.png') });
    await context.close();
  }, 180_000);
});
