import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { decideApproval, type PermissionRule } from '../../../src/engine/policy/approvals';
import { chipOfPart } from '../../../src/engine/context/attachmentTags';
import {
  attachMentions,
  MAX_ATTACHMENTS,
  mentionedPaths,
  type AttachmentEnv,
} from '../../../src/engine/runtime/promptAttachments';
import type { PermissionMode } from '../../../src/engine/session/records';
import { workspaceOf } from '../../../src/engine/policy/workspace';
import type { ContentPart } from '../../../src/llm/types';
import type { ToolServices } from '../../../src/tools/defineTool';
import { isSensitivePath, MODEL_MEDIA_INPUT, READ_MAX_LINES } from '../../../src/tools/file';
import { tempDir } from '../../helpers/files';

function services(imageIn = true): ToolServices {
  const registry = new Map<string, unknown>([[MODEL_MEDIA_INPUT.name, { image: imageIn, video: false }]]);
  return {
    scratchDir: '/nonexistent-session/scratch',
    nonInteractive: false,
    mainAgent: true,
    get: <T>(key: { name: string }) => {
      if (!registry.has(key.name)) throw new Error(`no service ${key.name}`);
      return registry.get(key.name) as T;
    },
    find: <T>(key: { name: string }) => registry.get(key.name) as T | undefined,
  };
}

function envFor(
  cwd: string,
  opts: { mode?: PermissionMode; rules?: PermissionRule[]; imageIn?: boolean } = {},
): AttachmentEnv {
  const workspace = workspaceOf({ cwd });
  return {
    cwd,
    services: services(opts.imageIn),
    judgeRead: (toolName, access) =>
      decideApproval({
        toolName,
        subject: `${toolName}(${access.path})`,
        accesses: [access],
        defaultApproval: 'auto',
        mode: opts.mode ?? 'manual',
        rules: opts.rules ?? [],
        sessionApprovals: [],
        cwd,
        workspace,
        isSensitivePath,
      }),
  };
}

function texts(parts: ContentPart[]): string[] {
  return parts.flatMap((p) => (p.type === 'text' ? [p.text] : []));
}

function project(): string {
  const cwd = tempDir('jarvis-attach-');
  mkdirSync(join(cwd, 'src'));
  writeFileSync(join(cwd, 'src', 'x.ts'), 'export const x = 1;\nexport const y = 2;\n');
  return cwd;
}

describe('@path attachments', () => {
  it('finds mentions after whitespace, quoted ones too, and not inside words', () => {
    expect(mentionedPaths('explain @src/x.ts and @"my notes.md", mail me@example.com')).toEqual([
      'src/x.ts',
      'my notes.md',
    ]);
    expect(mentionedPaths('@a.ts\n@b.ts @a.ts')).toEqual(['a.ts', 'b.ts']);
  });

  it('attaches a text file as Read returns it, with a chip instead of the content', async () => {
    const cwd = project();
    const out = await attachMentions('explain @src/x.ts.', envFor(cwd));
    expect(out.notices).toEqual([]);
    expect(out.chips).toEqual(['[@src/x.ts 2 lines]']);
    const [part] = texts(out.parts);
    expect(part).toMatch(
      /^<attached-file path="src\/x.ts" label="2 lines">\n1\texport const x = 1;\n2\texport const y = 2;\n<\/attached-file>$/,
    );
    expect(chipOfPart(out.parts[0])).toBe('[@src/x.ts 2 lines]');
  });

  it("a long file is cut at the Read limits, with Read's note and a chip that says so", async () => {
    const cwd = project();
    writeFileSync(
      join(cwd, 'long.txt'),
      Array.from({ length: READ_MAX_LINES + 50 }, (_, i) => `line ${i + 1}`).join('\n'),
    );
    const out = await attachMentions('@long.txt', envFor(cwd));
    expect(out.chips).toEqual([`[@long.txt ${READ_MAX_LINES} lines, cut]`]);
    expect(texts(out.parts)[0]).toContain(`[Truncated: showed lines 1-${READ_MAX_LINES}`);
  });

  it('a folder attaches a listing from the Glob walk (ignore files honoured, secrets left out)', async () => {
    const cwd = project();
    writeFileSync(join(cwd, '.gitignore'), 'build/\n');
    mkdirSync(join(cwd, 'build'));
    writeFileSync(join(cwd, 'build', 'out.js'), '');
    writeFileSync(join(cwd, 'src', '.env'), 'KEY=1');
    writeFileSync(join(cwd, 'src', 'y.ts'), '');
    const out = await attachMentions('look at @src/ and @./', envFor(cwd));
    expect(out.chips).toEqual(['[@src/ 2 files]', '[@./ 3 files]']);
    expect(texts(out.parts)[0]).toBe('<attached-folder path="src/" label="2 files">\nx.ts\ny.ts\n</attached-folder>');
    expect(texts(out.parts)[1]).not.toContain('build/out.js');
  });

  it('attaches an image as ReadMediaFile sends it, and refuses it for a model without image input', async () => {
    const cwd = project();
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#3366cc' } })
      .png()
      .toBuffer();
    writeFileSync(join(cwd, 'shot.png'), png);
    const out = await attachMentions('what is in @shot.png?', envFor(cwd));
    expect(out.chips).toEqual(['[@shot.png image 40x30]']);
    expect(out.parts[1]).toEqual({ type: 'image', mediaType: 'image/png', data: png.toString('base64') });
    expect(texts(out.parts)[0]).toContain('<attached-image path="shot.png" label="image 40x30">');

    const refused = await attachMentions('what is in @shot.png?', envFor(cwd, { imageIn: false }));
    expect(refused.parts).toEqual([]);
    expect(refused.notices[0]).toMatch(/^@shot.png was not attached: The current model does not accept image input/);
  });

  it('leaves words that are no path alone', async () => {
    const cwd = project();
    const out = await attachMentions('ask @someone about @types/node', envFor(cwd));
    expect(out).toEqual({ parts: [], chips: [], notices: [] });
  });

  it('attack: secrets, files outside the workspace and links out of it are not attached', async () => {
    const root = tempDir('jarvis-attach-root-');
    const cwd = join(root, 'repo');
    mkdirSync(cwd);
    writeFileSync(join(root, 'outside.txt'), 'TOP SECRET');
    writeFileSync(join(cwd, '.env'), 'API_KEY=hunter2');
    mkdirSync(join(cwd, '.ssh'));
    writeFileSync(join(cwd, '.ssh', 'id_rsa'), 'PRIVATE KEY');
    symlinkSync(join(root, 'outside.txt'), join(cwd, 'innocent.txt'));
    symlinkSync(join(cwd, '.env'), join(cwd, 'config.txt'));
    for (const mode of ['manual', 'yolo', 'auto'] as const) {
      const out = await attachMentions(
        `@.env @.ssh/id_rsa @../outside.txt @${join(root, 'outside.txt')} @innocent.txt @config.txt`,
        envFor(cwd, { mode }),
      );
      expect(out.parts).toEqual([]);
      expect(JSON.stringify(out)).not.toMatch(/hunter2|TOP SECRET|PRIVATE KEY/);
      expect(out.notices).toHaveLength(5); // ../outside.txt and the absolute path are the same file
      expect(out.notices.join('\n')).toMatch(/@\.env was not attached: .*may hold secrets/);
      expect(out.notices.join('\n')).toMatch(/@innocent.txt was not attached: .*outside the workspace/);
    }
  });

  it('a deny rule on Read stops the attachment; an allow rule lets a guarded file through', async () => {
    const cwd = project();
    const denied = await attachMentions(
      '@src/x.ts',
      envFor(cwd, { rules: [{ decision: 'deny', pattern: 'Read(**/x.ts)' }] }),
    );
    expect(denied.parts).toEqual([]);
    expect(denied.notices[0]).toMatch(/^@src\/x.ts was not attached: rule deny Read/);
    writeFileSync(join(cwd, '.env.local'), 'A=1');
    const allowed = await attachMentions(
      '@.env.local',
      envFor(cwd, { rules: [{ decision: 'allow', pattern: 'Read(**/.env.local)' }] }),
    );
    expect(allowed.chips).toEqual(['[@.env.local 1 line]']);
  });

  it(`attaches at most ${MAX_ATTACHMENTS} files per prompt`, async () => {
    const cwd = project();
    const names = Array.from({ length: MAX_ATTACHMENTS + 2 }, (_, i) => `f${i}.txt`);
    for (const n of names) writeFileSync(join(cwd, n), n);
    const out = await attachMentions(names.map((n) => `@${n}`).join(' '), envFor(cwd));
    expect(out.chips).toHaveLength(MAX_ATTACHMENTS);
    expect(out.notices).toEqual([
      `@f10.txt was not attached: a prompt attaches at most ${MAX_ATTACHMENTS} files.`,
      `@f11.txt was not attached: a prompt attaches at most ${MAX_ATTACHMENTS} files.`,
    ]);
  });
});
