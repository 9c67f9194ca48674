// The web UI's Must-show walk (docs/web.md "Tests"): `jarvis web` on the built CLI against the scripted model, in the
// system Chromium, at 1280×800 with the mouse, at 390×844 (a phone) with taps, and at 1280×800 with the keyboard
// alone: open the printed link, send a prompt and see the answer and a Bash card, approve a Write from the approval
// panel and see its diff, reject one with feedback the model receives, answer an AskUserQuestion, stop a running
// turn, resume an older session. Screenshots of each state go to docs/web/.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../helpers/cli';
import { api } from '../helpers/serveProcess';
import { newLink } from '../helpers/webProcess';
import { shot, startWebWorld, User, watched, type Mode, type WebWorld } from '../helpers/webUiWorld';

let world: WebWorld;

beforeAll(async () => {
  world = await startWebWorld();
  const older = await api(world.served, 'POST', '/api/v1/sessions', {});
  const prompt = await api(world.served, 'POST', `/api/v1/sessions/${older.data.session_id as string}/prompts`, {
    content: [{ type: 'text', text: 'an older session' }],
  });
  expect(prompt.code, prompt.msg).toBe(0);
  await waitUntil(() => world.model.requests.length > 0, 30_000, 'the older session to ask the model');
}, 60_000);

afterAll(async () => {
  await world?.close();
});

async function walk(mode: Mode): Promise<void> {
  const { browser, served, dirs, model } = world;
  const phone = mode === 'phone-390';
  const context = await browser.newContext({
    viewport: phone ? { width: 390, height: 844 } : { width: 1280, height: 800 },
    ...(phone ? { isMobile: true, hasTouch: true, deviceScaleFactor: 1 } : {}),
  });
  const page = await watched(context);
  const user = new User(page, mode);
  await page.goto(await newLink(served));
  const newSession = page.getByRole('button', { name: 'New session' });
  await newSession.waitFor();
  await user.press(newSession, 'New session');
  await page.getByRole('textbox', { name: 'Prompt' }).and(page.locator(':enabled')).waitFor();

  // A prompt and its answer, Markdown and code included.
  await user.send('say hello');
  const answer = page.getByRole('article', { name: 'answer' }).first();
  await answer.getByText('Jarvis').waitFor();
  // The answer streams in (message.delta): the code block is whole once the message has arrived.
  await expect.poll(() => answer.locator('pre code').textContent()).toBe('const answer = 42;');
  await shot(page, `${mode}-answer`);

  // A Bash card with its command and output (approved first if the mode asks).
  await user.send('run the check');
  const bash = page.locator('article[data-tool="Bash"]').last();
  await bash.waitFor();
  const bashApproval = page.getByRole('region', { name: 'Approval: Bash' });
  await Promise.race([bashApproval.waitFor(), bash.locator('.tool-out').waitFor()]);
  if (await bashApproval.isVisible())
    await user.press(bashApproval.getByRole('button', { name: 'Approve once' }), 'Approve once');
  await expect.poll(() => bash.locator('.tool-out').textContent()).toContain('web-ui-check');
  // The output as printed, not the model's <stdout> wrapper.
  expect(await bash.locator('pre.tool-out').first().textContent()).toBe('web-ui-check');
  await page.getByText('The command printed').waitFor();
  await shot(page, `${mode}-bash`);

  // A Write approved from the panel, its diff shown there and in the card.
  await user.send(`write the notes for ${mode}`);
  const approval = page.getByRole('region', { name: 'Approval: Write' });
  await approval.waitFor();
  const diff = approval.locator('figure.diff');
  expect(await diff.getAttribute('aria-label')).toBe(`Write notes-${mode}.txt: 2 lines added, 0 removed`);
  expect(await diff.locator('.dl-add').allTextContents()).toEqual(['+ first line\n', '+ second line\n']);
  await shot(page, `${mode}-approval`);
  await user.press(approval.getByRole('button', { name: 'Approve once' }), 'Approve once');
  await page.getByText('The file is written.').last().waitFor();
  expect(readFileSync(join(dirs.cwd, `notes-${mode}.txt`), 'utf8')).toBe('first line\nsecond line\n');
  await expect
    .poll(() => page.locator('article[data-tool="Write"]').last().getAttribute('aria-label'))
    .toBe('Write tool call, done');

  // A Write rejected with feedback, which the model receives.
  await user.send('write the secret');
  const second = page.getByRole('region', { name: 'Approval: Write' });
  await second.waitFor();
  await user.press(second.getByRole('button', { name: 'Reject…' }), 'Reject…');
  const feedback = `name it b-${mode}.txt`;
  await user.type(second.getByRole('textbox', { name: 'Feedback for the model' }), 'Feedback for the model', feedback);
  await shot(page, `${mode}-reject`);
  await user.press(second.getByRole('button', { name: 'Reject', exact: true }), 'Reject');
  await page.getByText('Understood, I will not write it.').last().waitFor();
  expect(existsSync(join(dirs.cwd, 'secret.txt'))).toBe(false);
  expect(await page.locator('article[data-tool="Write"]').last().getAttribute('aria-label')).toBe(
    'Write tool call, rejected',
  );
  expect(JSON.stringify(model.requests.at(-1)!.body.messages.at(-1))).toContain(feedback);

  // An AskUserQuestion answered.
  await user.send('ask me');
  const question = page.getByRole('region', { name: 'Question' });
  await question.waitFor();
  await shot(page, `${mode}-question`);
  if (mode === 'keyboard-1280') {
    // The panel took the focus on its first option; the arrow key moves to the next one.
    await page.keyboard.press('ArrowDown');
    expect(await question.getByRole('radio', { name: /Blue/ }).isChecked()).toBe(true);
    await user.focus('Answer');
    await page.keyboard.press('Enter');
  } else {
    await user.press(question.getByText('Blue', { exact: true }), 'Blue');
    await user.press(question.getByRole('button', { name: 'Answer' }), 'Answer');
  }
  await page.getByText('You picked Blue.').last().waitFor();

  // A running turn stopped.
  await user.send('think forever');
  const stop = page.getByRole('button', { name: 'Stop' });
  await stop.waitFor();
  await user.press(stop, 'Stop');
  await page.getByText('turn ended: interrupted').last().waitFor();
  await stop.waitFor({ state: 'hidden' });
  await shot(page, `${mode}-stopped`);

  // An older session resumed from the list.
  if (phone) await user.press(page.getByRole('button', { name: 'Sessions' }), 'Sessions');
  await user.type(page.getByRole('searchbox', { name: 'Search sessions' }), 'Search sessions', 'older');
  const older = page.getByRole('button', { name: /^an older session/ });
  await user.press(older, 'an older session');
  await page.getByText('This is the older answer.').waitFor();
  await page.getByRole('textbox', { name: 'Prompt' }).and(page.locator(':enabled')).waitFor();
  await shot(page, `${mode}-resumed`);
  await context.close();
}

describe('jarvis web: the walk in Chromium', () => {
  it('at 1280×800 with the mouse: prompt, Bash card, approve with diff, reject with feedback, question, stop, resume', async () => {
    await walk('mouse-1280');
  }, 120_000);

  it('at 390×844 on a phone: the same walk with taps', async () => {
    await walk('phone-390');
  }, 120_000);

  it('at 1280×800 with the keyboard alone: the same walk', async () => {
    await walk('keyboard-1280');
  }, 120_000);
});
