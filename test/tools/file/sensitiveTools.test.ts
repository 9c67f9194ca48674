// The files issue 31 found missing from the sensitive list, through the tools: auto mode refuses to
// read or write them, manual mode asks, Grep and Glob leave them out, `@path` does not attach them.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { attachMentions } from '../../../src/engine/runtime/promptAttachments';
import { decideApproval } from '../../../src/engine/policy/approvals';
import { workspaceOf } from '../../../src/engine/policy/workspace';
import type { PermissionMode } from '../../../src/engine/session/records';
import { globTool, grepTool, isSensitivePath } from '../../../src/tools/file';
import { makeToolHarness } from '../../helpers/toolHarness';

const SECRETS = [
  'certs/server.pem',
  'certs/server.key',
  '.netrc',
  '.npmrc',
  '.git-credentials',
  '.kube/config',
  '.pgpass',
  '.docker/config.json',
  '.pypirc',
  'certs/client.p12',
  '.htpasswd',
  'keys/id_ed25519',
];

function project() {
  const h = makeToolHarness();
  for (const file of SECRETS) {
    mkdirSync(dirname(join(h.cwd, file)), { recursive: true });
    writeFileSync(join(h.cwd, file), 'TOKEN=SECRET-VALUE\n');
  }
  writeFileSync(join(h.cwd, 'readme.txt'), 'TOKEN=PUBLIC-VALUE\n');
  return h;
}

function judge(cwd: string, mode: PermissionMode, tool: 'Read' | 'Write', path: string) {
  return decideApproval({
    toolName: tool,
    subject: `${tool}(${path})`,
    accesses: [tool === 'Read' ? { kind: 'read', path } : { kind: 'write', path }],
    defaultApproval: tool === 'Read' ? 'auto' : 'ask',
    mode,
    rules: [],
    sessionApprovals: [],
    cwd,
    workspace: workspaceOf({ cwd }),
    isSensitivePath,
  });
}

describe('the extended sensitive list through the tools', () => {
  it('Read and Write of each are refused in auto mode and asked about in manual and yolo mode', () => {
    const h = project();
    for (const file of SECRETS) {
      const path = join(h.cwd, file);
      for (const tool of ['Read', 'Write'] as const) {
        expect(judge(h.cwd, 'auto', tool, path), `${tool} ${file}`).toMatchObject({
          decision: 'deny',
          by: 'sensitive file (auto mode)',
        });
        expect(judge(h.cwd, 'manual', tool, path), `${tool} ${file}`).toMatchObject({
          decision: 'ask',
          by: 'sensitive file',
        });
        expect(judge(h.cwd, 'yolo', tool, path).decision).toBe('ask');
      }
    }
  });

  it('Grep and Glob leave them out and count them', async () => {
    const h = project();
    const grep = await h.run(grepTool, { pattern: 'TOKEN', output_mode: 'content', include_ignored: true });
    expect(grep.text).toContain('PUBLIC-VALUE');
    expect(grep.text).not.toContain('SECRET-VALUE');
    expect(grep.text).toContain(`[${SECRETS.length} sensitive files skipped`);
    const glob = await h.run(globTool, { pattern: '**/*', include_ignored: true });
    expect(glob.text).toContain('readme.txt');
    for (const file of SECRETS) expect(glob.text).not.toContain(file);
  });

  it('@path does not attach them, in auto or manual mode', async () => {
    const h = project();
    // Six at a time: a prompt attaches at most MAX_ATTACHMENTS files.
    for (const [mode, files] of [
      ['auto', SECRETS.slice(0, 6)],
      ['manual', SECRETS.slice(6)],
    ] as const) {
      const out = await attachMentions(files.map((f) => `@${f}`).join(' '), {
        cwd: h.cwd,
        services: h.services,
        judgeRead: (toolName, access) =>
          decideApproval({
            toolName,
            subject: `${toolName}(${access.path})`,
            accesses: [access],
            defaultApproval: 'auto',
            mode,
            rules: [],
            sessionApprovals: [],
            cwd: h.cwd,
            workspace: workspaceOf({ cwd: h.cwd }),
            isSensitivePath,
          }),
      });
      expect(out.parts).toEqual([]);
      expect(out.notices.filter((n) => n.includes('may hold secrets'))).toHaveLength(files.length);
    }
  });
});
