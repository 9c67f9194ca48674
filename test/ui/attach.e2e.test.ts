// Attaching files end to end (docs/ui.md "Attaching files"): `@path` of a text file and of an image,
// and a pasted image path — the real binary in tmux; the mock model server records what the model got.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { requireSystemPart } from '../helpers/requireAll';
import { appsClosedAfterEach, requestText, send, tempDir, waitForRequests, type Launched } from './e2eHarness';

const hasTmux = requireSystemPart('tmux', 'the terminal UI is tested inside tmux');

const start = appsClosedAfterEach();

type WirePart = { type: string; text?: string; image_url?: { url: string } };

/** The content parts of the last user message of request `i` (chat wire format). */
function lastUserParts(app: Launched, i: number): WirePart[] {
  const messages: Array<{ role: string; content: string | WirePart[] }> = app.server.requests[i]?.body?.messages ?? [];
  const last = messages.filter((m) => m.role === 'user').at(-1);
  if (!last) return [];
  return typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : last.content;
}

let png: Buffer;
beforeAll(async () => {
  png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#3366cc' } })
    .png()
    .toBuffer();
});

function projectWithFiles(): string {
  const cwd = tempDir('jarvis-ui-attach-');
  mkdirSync(join(cwd, 'src'));
  const lines = Array.from({ length: 120 }, (_, i) => (i === 76 ? 'const MARKER_LINE_77 = true;' : `// line ${i + 1}`));
  writeFileSync(join(cwd, 'src', 'x.ts'), lines.join('\n') + '\n');
  writeFileSync(join(cwd, 'shot.png'), png);
  return cwd;
}

describe.skipIf(!hasTmux)('attaching files in the UI (tmux)', { timeout: 60_000 }, () => {
  it('@path of a text file sends its content with the prompt; the transcript shows a chip', async () => {
    const app = await start({ cwd: projectWithFiles(), turns: [{ text: 'It defines a marker.' }] });
    send(app, 'explain @src/x.ts please');
    await waitForRequests(app, 1);
    // A text-only message reaches the chat wire as one string: the prompt, then the attachment.
    const [text] = lastUserParts(app, 0).map((p) => p.text ?? '');
    expect(text).toMatch(
      /^explain @src\/x.ts please\n<attached-file path="src\/x.ts" label="120 lines">\n1\t\/\/ line 1\n/,
    );
    expect(text).toContain('77\tconst MARKER_LINE_77 = true;');
    expect(text).toMatch(/120\t\/\/ line 120\n<\/attached-file>$/);
    await app.tmux.waitFor('It defines a marker.');
    const screen = app.tmux.all();
    expect(screen).toContain('[@src/x.ts 120 lines]');
    expect(screen).not.toContain('MARKER_LINE_77');
  });

  it('@path of an image sends its pixels (image_in model); a pasted image path attaches it too', async () => {
    const cwd = projectWithFiles();
    const app = await start({ cwd, turns: [{ text: 'A blue square.' }, { text: 'Still blue.' }] });
    const dataUrl = `data:image/png;base64,${png.toString('base64')}`;
    send(app, 'what is in @shot.png now');
    await waitForRequests(app, 1);
    const parts = lastUserParts(app, 0);
    expect(parts[1].text).toMatch(/^<attached-image path="shot.png" label="image 40x30">/);
    expect(parts[2]).toEqual({ type: 'image_url', image_url: { url: dataUrl } });
    await app.tmux.waitFor('A blue square.');
    expect(app.tmux.all()).toContain('[@shot.png image 40x30]');

    // A file dragged onto the terminal arrives as a bracketed paste of its path.
    app.tmux.paste(`'${join(cwd, 'shot.png')}'`);
    await app.tmux.waitFor('[Image #1: shot.png]');
    app.tmux.type(' and this?');
    app.tmux.keys('Enter');
    await waitForRequests(app, 2);
    const second = lastUserParts(app, 1);
    expect(second[0]).toEqual({ type: 'text', text: '[Image #1: shot.png] and this?' });
    expect(second[2]).toEqual({ type: 'image_url', image_url: { url: dataUrl } });
    await app.tmux.waitFor('[Image #1: shot.png image 40x30]', { scrollback: true });
  });

  it('/compact after an 800-line @file shrinks the context: the note carries the chip, not the file', async () => {
    const cwd = projectWithFiles();
    const big = Array.from({ length: 800 }, (_, i) => `export const value${i + 1} = ${i + 1}; // line ${i + 1}`);
    writeFileSync(join(cwd, 'src', 'big.ts'), big.join('\n') + '\n');
    const app = await start({
      cwd,
      turns: [
        { text: 'It exports 800 values.' },
        { text: 'Summary: big.ts exports value1..value800.' },
        { text: 'Yes.' },
      ],
    });
    send(app, 'explain @src/big.ts');
    await app.tmux.waitFor('It exports 800 values.');
    send(app, '/compact');
    const screen = await app.tmux.waitFor(/Conversation compacted · ~(\d+) → ~(\d+) tokens/);
    const [, before, after] = /Conversation compacted · ~(\d+) → ~(\d+) tokens/.exec(screen)!.map(Number);
    // The file alone is ~8 000 tokens (31 000 characters); the system prompt and tools stay.
    expect(before - after).toBeGreaterThan(7_000);
    send(app, 'still there?');
    await app.tmux.waitFor('Yes.');
    const next = requestText(app, 2);
    expect(next).toContain('[@src/big.ts 800 lines]');
    expect(next).not.toContain('export const value1 =');
  });

  it('a model without image input gets no image: the paste stays text and a notice says why', async () => {
    const cwd = projectWithFiles();
    const app = await start({ cwd, env: { JARVIS_MODEL_CAPABILITIES: 'thinking' } });
    app.tmux.paste(join(cwd, 'shot.png'));
    await app.tmux.waitFor('does not take images');
    expect(app.tmux.screen()).toContain(join(cwd, 'shot.png'));
    expect(app.tmux.screen()).not.toContain('[Image #1');
  });
});
