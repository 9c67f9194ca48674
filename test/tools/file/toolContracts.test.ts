// Cross-tool contracts: malformed arguments, approval defaults and subjects, declared accesses,
// and the model-facing descriptions.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Tool } from '../../../src/tools/defineTool';
import {
  editTool,
  fileTools,
  globTool,
  grepTool,
  readMediaFileTool,
  readTool,
  writeTool,
} from '../../../src/tools/file';
import { makeToolHarness } from '../../helpers/toolHarness';
import { prepareCall } from './prepareCall';

type Malformed = [string, Tool, unknown, string];

const MALFORMED: Malformed[] = [
  ['Read without path', readTool, {}, 'path'],
  ['Read path as number', readTool, { path: 5 }, 'path'],
  ['Read line_offset as string', readTool, { path: 'a', line_offset: '3' }, 'line_offset'],
  ['Read negative n_lines', readTool, { path: 'a', n_lines: -1 }, 'n_lines'],
  ['Read zero n_lines', readTool, { path: 'a', n_lines: 0 }, 'n_lines'],
  ['Read fractional n_lines', readTool, { path: 'a', n_lines: 2.5 }, 'n_lines'],
  ['Read line_offset 0', readTool, { path: 'a', line_offset: 0 }, 'line_offset'],
  ['Read line_offset -1001', readTool, { path: 'a', line_offset: -1001 }, 'line_offset'],
  ['Write without content', writeTool, { path: 'a' }, 'content'],
  ['Write content as number', writeTool, { path: 'a', content: 1 }, 'content'],
  ['Write unknown mode', writeTool, { path: 'a', content: 'x', mode: 'prepend' }, 'mode'],
  ['Write path null', writeTool, { path: null, content: 'x' }, 'path'],
  ['Edit without old_string', editTool, { path: 'a', new_string: 'x' }, 'old_string'],
  [
    'Edit replace_all as string',
    editTool,
    { path: 'a', old_string: 'x', new_string: 'y', replace_all: 'yes' },
    'replace_all',
  ],
  ['Edit identical strings', editTool, { path: 'a', old_string: 'x', new_string: 'x' }, 'identical'],
  ['Edit empty old_string', editTool, { path: 'a', old_string: '', new_string: 'x' }, 'old_string'],
  ['Grep without pattern', grepTool, {}, 'pattern'],
  ['Grep empty pattern', grepTool, { pattern: '' }, 'pattern'],
  ['Grep negative head_limit', grepTool, { pattern: 'x', head_limit: -1 }, 'head_limit'],
  ['Grep negative offset', grepTool, { pattern: 'x', offset: -5 }, 'offset'],
  ['Grep negative -A', grepTool, { pattern: 'x', '-A': -1 }, '-A'],
  ['Grep -C as string', grepTool, { pattern: 'x', '-C': '2' }, '-C'],
  ['Grep unknown output_mode', grepTool, { pattern: 'x', output_mode: 'lines' }, 'output_mode'],
  ['Grep -i as string', grepTool, { pattern: 'x', '-i': 'true' }, '-i'],
  ['Glob without pattern', globTool, { path: '.' }, 'pattern'],
  ['Glob include_ignored as string', globTool, { pattern: '*', include_ignored: 'no' }, 'include_ignored'],
  ['Glob path as number', globTool, { pattern: '*', path: 3 }, 'path'],
  ['ReadMediaFile without path', readMediaFileTool, {}, 'path'],
  [
    'ReadMediaFile negative region x',
    readMediaFileTool,
    { path: 'a.png', region: { x: -1, y: 0, width: 1, height: 1 } },
    'region.x',
  ],
  [
    'ReadMediaFile zero region width',
    readMediaFileTool,
    { path: 'a.png', region: { x: 0, y: 0, width: 0, height: 1 } },
    'region.width',
  ],
  [
    'ReadMediaFile region missing height',
    readMediaFileTool,
    { path: 'a.png', region: { x: 0, y: 0, width: 1 } },
    'region.height',
  ],
  [
    'ReadMediaFile full_resolution as string',
    readMediaFileTool,
    { path: 'a.png', full_resolution: 'yes' },
    'full_resolution',
  ],
];

describe('malformed arguments', () => {
  it.each(MALFORMED)('%s → a clear error', async (_name, tool, args, field) => {
    const h = makeToolHarness();
    const r = await h.run(tool, args);
    expect(r.isError).toBe(true);
    expect(r.text).toContain(`Invalid arguments for ${tool.name}`);
    expect(r.text).toContain(field);
  });

  it.each(fileTools.map((t) => [t.name, t] as const))(
    '%s rejects non-JSON and non-object arguments',
    async (_name, tool) => {
      const h = makeToolHarness();
      expect((await h.run(tool, '{not json')).text).toContain('not valid JSON');
      expect((await h.run(tool, '[1,2]')).text).toContain('must be a JSON object');
      expect((await h.run(tool, '"x"')).text).toContain('must be a JSON object');
    },
  );
});

describe('approvals and accesses', () => {
  const table: Array<
    [Tool, 'auto' | 'ask', boolean, (cwd: string) => unknown, (cwd: string) => string, (cwd: string) => unknown[]]
  > = [
    [
      readTool,
      'auto',
      true,
      () => ({ path: 'a.txt' }),
      (c) => `Read(${join(c, 'a.txt')})`,
      (c) => [{ kind: 'read', path: join(c, 'a.txt'), tracked: true }],
    ],
    [
      writeTool,
      'ask',
      false,
      () => ({ path: 'a.txt', content: '' }),
      (c) => `Write(${join(c, 'a.txt')})`,
      (c) => [{ kind: 'write', path: join(c, 'a.txt') }],
    ],
    [
      editTool,
      'ask',
      false,
      () => ({ path: 'a.txt', old_string: 'a', new_string: 'b' }),
      (c) => `Edit(${join(c, 'a.txt')})`,
      (c) => [{ kind: 'write', path: join(c, 'a.txt') }],
    ],
    [grepTool, 'auto', true, () => ({ pattern: 'x' }), (c) => `Grep(${c})`, (c) => [{ kind: 'read', path: c }]],
    [
      grepTool,
      'auto',
      true,
      () => ({ pattern: 'x', path: 'src' }),
      (c) => `Grep(${join(c, 'src')})`,
      (c) => [{ kind: 'read', path: join(c, 'src') }],
    ],
    [globTool, 'auto', true, () => ({ pattern: '**/*.ts' }), (c) => `Glob(${c})`, (c) => [{ kind: 'read', path: c }]],
    [
      globTool,
      'auto',
      true,
      () => ({ pattern: '*.ts', path: 'src' }),
      (c) => `Glob(${join(c, 'src')})`,
      (c) => [{ kind: 'read', path: join(c, 'src') }],
    ],
    [
      readMediaFileTool,
      'auto',
      true,
      () => ({ path: 'a.png' }),
      (c) => `ReadMediaFile(${join(c, 'a.png')})`,
      (c) => [{ kind: 'read', path: join(c, 'a.png') }],
    ],
  ];

  it.each(table.map((row) => [row[0].name, ...row] as const))(
    '%s: approval, subject and accesses',
    (_name, tool, approval, readOnly, args, subject, accesses) => {
      const h = makeToolHarness();
      writeFileSync(join(h.cwd, 'a.txt'), 'a');
      expect(tool.defaultApproval).toBe(approval);
      expect(tool.readOnly).toBe(readOnly);
      const prepared = prepareCall(h, tool, args(h.cwd));
      expect(prepared.error).toBeUndefined();
      expect(prepared.subject).toBe(subject(h.cwd));
      expect(prepared.accesses).toEqual(accesses(h.cwd));
    },
  );

  it('exports the six file tools in order', () => {
    expect(fileTools.map((t) => t.name)).toEqual(['Read', 'Write', 'Edit', 'Grep', 'Glob', 'ReadMediaFile']);
  });
});

describe('descriptions', () => {
  it.each(fileTools.map((t) => [t.name, t] as const))('%s has a tight, fully rendered description', (_name, tool) => {
    expect(tool.renderedDescription.length).toBeLessThanOrEqual(1500);
    expect(tool.renderedDescription).not.toMatch(/\$\{/);
  });

  it('Read documents its line-number format and limits from its constants', () => {
    expect(readTool.renderedDescription).toContain('<line number><TAB><content>');
    expect(readTool.renderedDescription).toContain('1000 lines or 100 KB');
    expect(readTool.renderedDescription).toContain('2000 characters');
  });

  it('ReadMediaFile states the default image limits', () => {
    expect(readMediaFileTool.renderedDescription).toContain('2000 px');
    expect(readMediaFileTool.renderedDescription).toContain('262144 bytes');
    expect(readMediaFileTool.renderedDescription).toContain('100 MB');
  });
});
