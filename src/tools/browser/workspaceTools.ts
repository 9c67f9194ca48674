// opfs_write / opfs_read / opfs_list / opfs_delete: files in the profile's workspace folder.
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { defineTool, type ToolContext, type ToolResult } from '../defineTool';
import { jsonError, jsonResult } from './browserService';
import deleteText from './opfsDelete.md';
import listText from './opfsList.md';
import readText from './opfsRead.md';
import writeText from './opfsWrite.md';
import {
  isBinaryContent,
  mimeTypeOf,
  normaliseWorkspacePath,
  resolveInWorkspace,
  WORKSPACE_SERVICE,
} from './workspacePaths';

export const OPFS_PAGE_LINES = 200;

const DATA_URL = /^data:([^;,]+)?;base64,([A-Za-z0-9+/=\s]*)$/;

async function located(
  ctx: ToolContext<typeof WORKSPACE_SERVICE>,
  path: string,
  opts: { allowEmpty?: boolean } = {},
): Promise<{ clean: string; abs: string }> {
  const { root } = ctx.services.get(WORKSPACE_SERVICE);
  await mkdir(root, { recursive: true });
  const clean = normaliseWorkspacePath(path, opts);
  return { clean, abs: await resolveInWorkspace(root, clean) };
}

async function guarded(run: () => Promise<ToolResult>): Promise<ToolResult> {
  try {
    return await run();
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'ENOENT') return jsonError(`Not found: ${err.path ?? 'the path'} does not exist in the workspace`);
    return jsonError(err.message);
  }
}

export const opfsWriteTool = defineTool({
  name: 'opfs_write',
  services: [WORKSPACE_SERVICE],
  description: writeText,
  schema: z.object({ path: z.string(), content: z.string() }),
  readOnly: false,
  defaultApproval: 'auto',
  subject: (args) => `opfs_write(${args.path})`,
  execute: (args, ctx) =>
    guarded(async () => {
      const { clean, abs } = await located(ctx, args.path);
      const data = DATA_URL.exec(args.content);
      const bytes = data ? Buffer.from(data[2].replace(/\s/g, ''), 'base64') : Buffer.from(args.content, 'utf8');
      await mkdir(dirname(abs), { recursive: true });
      // Re-check after creating folders: a parent could have been swapped for a link meanwhile.
      await resolveInWorkspace(ctx.services.get(WORKSPACE_SERVICE).root, clean);
      const tmp = `${abs}.tmp-${randomBytes(4).toString('hex')}`;
      await writeFile(tmp, bytes);
      await rename(tmp, abs);
      return jsonResult({ path: clean, size: bytes.length }, `Wrote ${clean} (${bytes.length} bytes)`);
    }),
});

export const opfsReadTool = defineTool({
  name: 'opfs_read',
  services: [WORKSPACE_SERVICE],
  description: readText,
  constants: { PAGE_LINES: OPFS_PAGE_LINES },
  schema: z.object({
    path: z.string(),
    mode: z.enum(['auto', 'text', 'blob']).optional(),
    offset: z.number().int().optional(),
    limit: z.number().int().min(0).optional(),
  }),
  readOnly: true,
  defaultApproval: 'auto',
  subject: (args) => `opfs_read(${args.path})`,
  execute: (args, ctx) =>
    guarded(async () => {
      const { clean, abs } = await located(ctx, args.path);
      if ((await stat(abs)).isDirectory()) return jsonError(`${clean} is a folder; use opfs_list`);
      const bytes = await readFile(abs);
      const mimeType = mimeTypeOf(clean);
      const mode = args.mode ?? 'auto';
      if (mode === 'blob' || (mode === 'auto' && isBinaryContent(bytes))) {
        return jsonResult({
          path: clean,
          blobUrl: pathToFileURL(abs).href,
          localPath: abs,
          size: bytes.length,
          mimeType,
          type: 'binary',
        });
      }
      const lines = bytes.toString('utf8').split('\n');
      const totalLines = lines.length;
      if (args.offset === undefined && args.limit === undefined && totalLines > OPFS_PAGE_LINES) {
        return jsonError(
          `${clean} has ${totalLines} lines, more than ${OPFS_PAGE_LINES}: read it in pages with offset and limit (e.g. offset 1, limit ${OPFS_PAGE_LINES}).`,
        );
      }
      const startLine = Math.max(1, args.offset ?? 1);
      const endLine = args.limit === undefined ? totalLines : Math.min(totalLines, startLine + args.limit - 1);
      const content = lines.slice(startLine - 1, Math.max(startLine - 1, endLine)).join('\n');
      return jsonResult({ path: clean, content, totalLines, startLine, endLine, mimeType, type: 'text' });
    }),
});

export const opfsListTool = defineTool({
  name: 'opfs_list',
  services: [WORKSPACE_SERVICE],
  description: listText,
  schema: z.object({ path: z.string().optional() }),
  readOnly: true,
  defaultApproval: 'auto',
  execute: (args, ctx) =>
    guarded(async () => {
      const { clean, abs } = await located(ctx, args.path ?? '', { allowEmpty: true });
      if (!(await stat(abs)).isDirectory()) return jsonError(`${clean} is a file; use opfs_read`);
      const entries = (await readdir(abs, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
      const listed = await Promise.all(
        entries
          .filter((e) => !/\.tmp-[0-9a-f]{8}$/.test(e.name))
          .map(async (e) =>
            e.isDirectory()
              ? { name: e.name, type: 'directory' }
              : { name: e.name, type: 'file', size: (await lstat(`${abs}/${e.name}`)).size },
          ),
      );
      return jsonResult(listed, `${listed.length} entries`);
    }),
});

export const opfsDeleteTool = defineTool({
  name: 'opfs_delete',
  services: [WORKSPACE_SERVICE],
  description: deleteText,
  schema: z.object({ path: z.string() }),
  readOnly: false,
  defaultApproval: 'auto',
  subject: (args) => `opfs_delete(${args.path})`,
  execute: (args, ctx) =>
    guarded(async () => {
      const clean = normaliseWorkspacePath(args.path);
      // Only the folder part is resolved: a link itself may be deleted even when it points outside.
      const slash = clean.lastIndexOf('/');
      const { abs: parent } = await located(ctx, clean.slice(0, Math.max(0, slash)), { allowEmpty: true });
      const abs = `${parent}/${clean.slice(slash + 1)}`;
      await lstat(abs);
      // rm never follows a symbolic link: it removes the link, not what it points to.
      await rm(abs, { recursive: true });
      return jsonResult({ success: true });
    }),
});
