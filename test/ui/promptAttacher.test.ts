// Pasted images and the chips of sent prompts (src/ui/promptAttacher.ts), and chips of a resumed session.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../../src/engine/runtime/runtime';
import { workspaceOf } from '../../src/engine/policy/workspace';
import type { ContentPart } from '../../src/llm/types';
import type { ClipboardContent } from '../../src/platform/clipboard';
import { MODEL_MEDIA_INPUT } from '../../src/tools/file';
import { pastedPath, PromptAttacher } from '../../src/ui/promptAttacher';
import { blocksFromMessages } from '../../src/ui/transcript/replay';
import { loadTheme } from '../../src/ui/theme';
import { tempDir } from '../helpers/files';

let png: Buffer;
beforeAll(async () => {
  png = await sharp({ create: { width: 20, height: 10, channels: 3, background: '#aa3300' } })
    .png()
    .toBuffer();
});

function fakeRuntime(cwd: string): Runtime {
  const registry = new Map<string, unknown>([[MODEL_MEDIA_INPUT.name, { image: true, video: false }]]);
  return {
    services: {
      scratchDir: cwd,
      nonInteractive: false,
      mainAgent: true,
      get: (k: { name: string }) => registry.get(k.name),
      find: (k: { name: string }) => registry.get(k.name),
    },
    agent: { permissionState: () => ({ mode: 'manual', sessionApprovals: [] }) },
    workspace: workspaceOf({ cwd }),
  } as unknown as Runtime;
}

function attacher(cwd: string, opts: { imageIn?: boolean; clipboard?: ClipboardContent } = {}) {
  const notices: string[] = [];
  const a = new PromptAttacher(
    {
      cwd,
      rules: [],
      imageInput: () => opts.imageIn ?? true,
      modelLabel: 'test-model',
      notice: (_l, text) => void notices.push(text),
      requestRender: () => undefined,
    },
    async () => opts.clipboard ?? { kind: 'empty' },
  );
  return { a, notices };
}

/** Temporary copies of clipboard images that still exist. */
function clipboardCopies(): string[] {
  return readdirSync(tmpdir()).filter(
    (d) => d.startsWith('jarvis-paste-') && existsSync(join(tmpdir(), d, 'clipboard.png')),
  );
}

/** Sends through the attacher and resolves with what would be submitted. */
function sendVia(a: PromptAttacher, cwd: string, text: string): Promise<ContentPart[]> {
  return new Promise((resolve) => a.send(fakeRuntime(cwd), text, [{ type: 'text', text }], resolve));
}

describe('pasted images', () => {
  it('reads the path forms terminals paste for a dropped file', () => {
    expect(pastedPath("'/tmp/my shot.png'")).toBe('/tmp/my shot.png');
    expect(pastedPath('/tmp/my\\ shot.png ')).toBe('/tmp/my shot.png');
    expect(pastedPath('file:///tmp/my%20shot.png')).toBe('/tmp/my shot.png');
    expect(pastedPath('two\nlines')).toBeUndefined();
  });

  it('Ctrl-V with an image: a placeholder, the image goes with the prompt, the temporary copy is removed', async () => {
    const cwd = tempDir('jarvis-cwd-');
    const { a } = attacher(cwd, { clipboard: { kind: 'image', data: png, mediaType: 'image/png' } });
    const pasted = await a.pasteFromClipboard();
    expect(pasted).toEqual({ kind: 'image', insert: '[Image #1]' });
    expect(clipboardCopies()).toHaveLength(1);
    const sent = await sendVia(a, cwd, 'what is [Image #1]?');
    expect(sent[1]).toMatchObject({
      type: 'text',
      text: expect.stringMatching(/^<attached-image path="\[Image #1\]" label="image 20x10">/),
    });
    expect(sent[2]).toEqual({ type: 'image', mediaType: 'image/png', data: png.toString('base64') });
    expect(a.takeChips('what is [Image #1]?')).toEqual(['[Image #1 image 20x10]']);
    expect(clipboardCopies()).toEqual([]);
  });

  it('a placeholder deleted from the text sends nothing, and its temporary file goes', async () => {
    const cwd = tempDir('jarvis-cwd-');
    const { a } = attacher(cwd, { clipboard: { kind: 'image', data: png, mediaType: 'image/png' } });
    await a.pasteFromClipboard();
    expect(clipboardCopies()).toHaveLength(1);
    const sent = await sendVia(a, cwd, 'never mind');
    expect(sent).toEqual([{ type: 'text', text: 'never mind' }]);
    expect(clipboardCopies()).toEqual([]);
  });

  it('clipboard text is pasted as text; no image model, an empty clipboard or no tool get a notice', async () => {
    const cwd = tempDir('jarvis-cwd-');
    expect(await attacher(cwd, { clipboard: { kind: 'text', text: 'hi' } }).a.pasteFromClipboard()).toEqual({
      kind: 'text',
      insert: 'hi',
    });
    const noImages = attacher(cwd, { imageIn: false, clipboard: { kind: 'image', data: png, mediaType: 'image/png' } });
    expect(await noImages.a.pasteFromClipboard()).toBeUndefined();
    expect(noImages.notices).toEqual([
      expect.stringContaining('test-model does not take images (it lacks the image_in capability)'),
    ]);
    const none = attacher(cwd, { clipboard: { kind: 'unavailable', message: 'xclip is not installed.' } });
    expect(await none.a.pasteFromClipboard()).toBeUndefined();
    expect(none.notices).toEqual(['xclip is not installed.']);
  });

  it('a pasted image path becomes a placeholder; other pastes stay text', () => {
    const cwd = tempDir('jarvis-cwd-');
    writeFileSync(join(cwd, 'shot.png'), png);
    writeFileSync(join(cwd, 'notes.txt'), 'x');
    const { a } = attacher(cwd);
    expect(a.pasteText(join(cwd, 'shot.png'))).toBe('[Image #1: shot.png]');
    expect(a.pasteText(join(cwd, 'notes.txt'))).toBeUndefined();
    expect(a.pasteText('just words')).toBeUndefined();
    a.dispose();
    expect(existsSync(join(cwd, 'shot.png'))).toBe(true); // the user's own file is never removed
  });

  it('sends keep their order while one waits for its files', async () => {
    const cwd = tempDir('jarvis-cwd-');
    writeFileSync(join(cwd, 'a.txt'), 'A');
    const { a } = attacher(cwd);
    const order: string[] = [];
    const rt = fakeRuntime(cwd);
    await new Promise<void>((resolve) => {
      a.send(rt, 'first @a.txt', [], () => order.push('first'));
      a.send(rt, 'second', [], () => {
        order.push('second');
        resolve();
      });
    });
    expect(order).toEqual(['first', 'second']);
    expect(a.takeChips('first @a.txt')).toEqual(['[@a.txt 1 line]']);
  });
});

describe('a resumed session', () => {
  it('shows attachments as chips, not their content', () => {
    const view = { theme: loadTheme('dark', tempDir('jarvis-home-'), {}).theme, expanded: false, cwd: '/p' };
    const blocks = blocksFromMessages(
      [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'explain @src/x.ts and @shot.png' },
            { type: 'text', text: '<attached-file path="src/x.ts" label="2 lines">\n1\tSECRET_BODY\n</attached-file>' },
            {
              type: 'text',
              text: '<attached-image path="shot.png" label="image 20x10">\nImage shot.png\n</attached-image>',
            },
            { type: 'image', mediaType: 'image/png', data: 'AAAA' },
          ],
        },
      ],
      view,
    );
    const shown = blocks.flatMap((b) => b.render(80)).join('\n');
    expect(shown).toContain('explain @src/x.ts and @shot.png');
    expect(shown).toContain('[@src/x.ts 2 lines] [@shot.png image 20x10]');
    expect(shown).not.toContain('SECRET_BODY');
    expect(shown).not.toContain('[image]');
  });
});
