import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  exportFileName,
  exportMarkdown,
  ExportError,
  renderTranscriptMarkdown,
} from '../../../src/engine/runtime/exportMarkdown';
import { emptyState } from '../../../src/engine/session/records';
import { ENV_MODEL_ALIAS } from '../../../src/types/models';
import { Session } from '../../../src/engine/session/session';
import { undo } from '../../../src/engine/session/undo';
import { sessionArchiveEntries } from '../../../src/cli/exportCommand';
import { readZip, writeZip } from '../../../src/platform/zip';
import { sessionDirFor } from '../../../src/store/sessionStore';
import { makeEngine, type EngineHarness, verifyEnginesAfterEach, runPrompt } from '../../helpers/engineHarness';

let h: EngineHarness | undefined;
verifyEnginesAfterEach();

const prompt = runPrompt;

async function richSession(): Promise<EngineHarness> {
  const engine = makeEngine({
    mode: 'yolo',
    responses: [
      { toolCalls: [{ id: 'c1', name: 'Peek', arguments: { key: 'notes', ms: 0 } }] },
      { text: 'Here is code:\n```ts\nconst x = 1;\n```' },
      { text: 'a2' },
      { text: 'The hand-off note.' },
      { text: 'a3 withdrawn' },
      { text: 'a4' },
    ],
  });
  await prompt(engine, 'p1: read the notes');
  await prompt(engine, 'p2');
  await engine.runtime.compaction.compact({ instruction: 'keep the notes' });
  await prompt(engine, 'p3 to withdraw');
  undo(engine.runtime, 1);
  await prompt(engine, 'p4');
  engine.runtime.session.commit({ type: 'title', title: 'Notes work' });
  return engine;
}

describe('Markdown export', () => {
  it('renders the whole journal: compacted messages, the note where it happened, no withdrawn turn', async () => {
    h = await richSession();
    const now = new Date('2025-03-04T05:06:07Z');
    const { path, markdown } = exportMarkdown(h.runtime.session, { cwd: h.cwd, now });
    expect(path).toBe(join(h.cwd, exportFileName(h.runtime.session.id, now)));
    expect(path).toMatch(/jarvis-export-[0-9a-z]{8}-20250304-050607\.md$/);
    expect(readFileSync(path, 'utf8')).toBe(markdown);
    expect(markdown).toMatch(/^# Notes work\n/);
    expect(markdown).toContain(`- Session: \`${h.runtime.session.id}\``);
    expect(markdown).toContain('## User\n\np1: read the notes');
    expect(markdown).toContain('**Tool call** `Peek`\n\n```json\n{\n  "key": "notes",\n  "ms": 0\n}\n```');
    expect(markdown).toContain('**Result** `Peek`\n\n```\nvalue of notes\n```');
    expect(markdown).toContain('Here is code:\n```ts\nconst x = 1;\n```');
    expect(markdown).toMatch(/Compacted on request: 4 messages .*Instruction: “keep the notes”/);
    expect(markdown).toContain('<details><summary>Hand-off note</summary>\n\nThe hand-off note.\n\n</details>');
    expect(markdown).not.toContain('<compaction-summary>');
    expect(markdown).not.toContain('p3 to withdraw');
    expect(markdown).not.toContain('a3 withdrawn');
    expect(markdown.indexOf('p2')).toBeLessThan(markdown.indexOf('Hand-off note'));
    expect(markdown.indexOf('Hand-off note')).toBeLessThan(markdown.indexOf('## User\n\np4'));
  });

  it('writes into a folder, to a relative path, and explains a missing folder', async () => {
    h = makeEngine({ responses: [{ text: 'contains ``` and ````' }] });
    await prompt(h, 'fences');
    mkdirSync(join(h.cwd, 'out'));
    const inFolder = exportMarkdown(h.runtime.session, { cwd: h.cwd, path: 'out' });
    expect(dirname(inFolder.path)).toBe(join(h.cwd, 'out'));
    const named = exportMarkdown(h.runtime.session, { cwd: h.cwd, path: 'notes.md' });
    expect(named.path).toBe(join(h.cwd, 'notes.md'));
    expect(() => exportMarkdown(h!.runtime.session, { cwd: h!.cwd, path: 'missing/x.md' })).toThrow(ExportError);
  });
});

describe('Markdown export: the model line', () => {
  const modelOf = (alias: string, modelId?: string) =>
    renderTranscriptMarkdown({ ...emptyState(), modelAlias: alias }, [], new Date(0), modelId)
      .split('\n')
      .find((l) => l.startsWith('- Model:'));

  it('names the provider model id of the JARVIS_MODEL_* variables, never the placeholder alias', () => {
    expect(modelOf(ENV_MODEL_ALIAS, 'gpt-x')).toBe('- Model: gpt-x (JARVIS_MODEL_* variables)');
    expect(modelOf(ENV_MODEL_ALIAS)).toBe('- Model: set by the JARVIS_MODEL_* variables');
  });

  it('shows a configured alias, with the model id when it differs', () => {
    expect(modelOf('fast')).toBe('- Model: fast');
    expect(modelOf('fast', 'fast')).toBe('- Model: fast');
    expect(modelOf('fast', 'gpt-x-mini')).toBe('- Model: fast (gpt-x-mini)');
  });
});

describe('session archive', () => {
  it('round-trips: the extracted session folder resumes to the same state', async () => {
    h = await richSession();
    const session = h.runtime.session;
    mkdirSync(join(h.home, 'logs'), { recursive: true });
    writeFileSync(join(h.home, 'logs', 'jarvis-code.log'), 'global log line\n');
    const zipPath = join(h.cwd, 'session.zip');
    const entries = sessionArchiveEntries(h.home, session.location, true, new Date());
    await writeZip(zipPath, entries);
    const files = await readZip(readFileSync(zipPath));
    const names = files.map((f) => f.name);
    expect(names).toContain(`${session.id}/agents/main/wire.jsonl`);
    expect(names).toContain(`${session.id}/state.json`);
    expect(names).toContain('logs/jarvis-code.log');
    expect(JSON.parse(files.find((f) => f.name === 'export-manifest.json')!.data.toString())).toMatchObject({
      sessionId: session.id,
      globalLog: true,
    });
    expect(sessionArchiveEntries(h.home, session.location, false, new Date()).map((e) => e.name)).not.toContain(
      'logs/jarvis-code.log',
    );

    // Unpack into another home, as a user moving the session would, and resume it there.
    const otherHome = mkdtempSync(join(tmpdir(), 'jarvis-import-'));
    const dir = sessionDirFor(otherHome, h.cwd, session.id);
    for (const f of files) {
      if (!f.name.startsWith(`${session.id}/`)) continue;
      const target = join(dir, f.name.slice(session.id.length + 1));
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, f.data);
    }
    const restored = Session.open({ sessionId: session.id, sessionDir: dir, workDir: h.cwd, home: otherHome });
    // Deliberately: everything but the permission mode comes back. The other home's key did not authenticate its
    // mode record, so it does not grant yolo there (docs/sessions.md, "What a resume trusts").
    expect(session.state.mode).toBe('yolo');
    expect(restored.state.mode).toBe('manual');
    expect({ ...restored.state, mode: session.state.mode }).toEqual(session.state);
    expect(restored.warnings.join('\n')).toMatch(/1 permission record was not applied \(mode yolo\)/);
    expect(Session.findLatest(otherHome, h.cwd)?.sessionId).toBe(session.id);
  });
});
