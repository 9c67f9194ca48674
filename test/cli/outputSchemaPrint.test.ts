// docs/print-mode.md "Structured output": `jarvis -p --output-schema schema.json` through the built CLI and the
// scripted model. The model is told the schema (in the prompt, and as the StructuredOutput tool's parameters); an
// answer that does not satisfy it is sent back with the reasons, at most 3 times; the result carries
// `structured_output`, or the run ends `schema_failed` (exit 7) with the errors. A bad schema file is a usage error.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMockModelServer, type MockModelServer, type ScriptedTurn } from '../helpers/mockModelServer';
import { resultOf } from '../helpers/resultSchema';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis, type CliDirs } from '../helpers/cli';

/** A verdict a CI job might ask for, written the way users write schema files (draft-07, a description). */
const VERDICT_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  description: 'The build verdict',
  type: 'object',
  properties: {
    status: { enum: ['pass', 'fail'] },
    failures: { type: 'integer', minimum: 0 },
  },
  required: ['status', 'failures'],
  additionalProperties: false,
};

let server: MockModelServer;
let dirs: CliDirs;
beforeEach(async () => {
  server = await startMockModelServer();
  dirs = makeCliDirs();
});
afterEach(async () => {
  await server.close();
});

async function run(turns: ScriptedTurn[], schema: unknown, format: 'stream-json' | 'json' = 'stream-json') {
  const file = join(dirs.cwd, 'verdict.schema.json');
  writeFileSync(file, typeof schema === 'string' ? schema : JSON.stringify(schema, null, 2));
  server.push(...turns);
  const r = await runJarvis(
    ['-p', 'check the build', '--output-format', format, '--output-schema', 'verdict.schema.json'],
    { env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))), cwd: dirs.cwd },
  );
  const lines = r.stdout.trim().split('\n');
  const result = resultOf(r.stdout);
  return { ...r, result, lines };
}

/** The text of the last user message of request `i` (what the model was told). */
function lastUserText(i: number): string {
  const messages = server.requests[i].body.messages as Array<{ role: string; content: unknown }>;
  const last = messages.filter((m) => m.role === 'user' || m.role === 'tool').at(-1)!;
  if (typeof last.content === 'string') return last.content;
  return (last.content as Array<{ text?: string }>).map((p) => p.text ?? '').join('\n');
}

describe('--output-schema', () => {
  it('a valid answer through the StructuredOutput tool ends the run at once, with structured_output', async () => {
    const r = await run(
      [{ toolCalls: [{ name: 'StructuredOutput', arguments: { status: 'fail', failures: 2 } }] }],
      VERDICT_SCHEMA,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.result).toMatchObject({
      outcome: 'success',
      exit_code: 0,
      structured_output: { status: 'fail', failures: 2 },
    });
    // The answer ended the turn: no request after the accepted call.
    expect(server.requests).toHaveLength(1);
    const body = server.requests[0].body as { tools: Array<{ function: { name: string; parameters: unknown } }> };
    const tool = body.tools.find((t) => t.function.name === 'StructuredOutput')!;
    expect(tool.function.parameters).toMatchObject({ required: ['status', 'failures'], additionalProperties: false });
    // The prompt carries the schema and the bound.
    const prompt = lastUserText(0);
    expect(prompt).toContain('check the build');
    expect(prompt).toContain('failures');
    expect(prompt).toContain('At most 4 answers will be judged; if none satisfies the schema, the run fails.');
    // The tool's result is journalled like any call, so a resumed session stays well formed.
    expect(r.lines.map((l) => JSON.parse(l) as { role?: string; name?: string })).toContainEqual(
      expect.objectContaining({ role: 'tool', name: 'StructuredOutput' }),
    );
  });

  it('a plain chat answer that does not fit is sent back with the reasons, then a fenced JSON answer is accepted', async () => {
    const r = await run(
      [
        { text: 'The build failed twice: {"status": "failed", "failures": "two"}' },
        { text: 'Here is the verdict:\n\n```json\n{ "status": "fail", "failures": 2 }\n```\n' },
      ],
      VERDICT_SCHEMA,
      'json',
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.lines).toHaveLength(1);
    expect(r.result).toMatchObject({ outcome: 'success', structured_output: { status: 'fail', failures: 2 } });
    expect(server.requests).toHaveLength(2);
    const reask = lastUserText(1);
    expect(reask).toContain('does not satisfy the output schema (answer 1 of at most 4)');
    expect(reask).toContain('the answer is not a JSON document');
    expect(r.stderr).toContain(
      'warning: the answer does not satisfy the output schema (answer 1 of at most 4); it was sent back: the answer is not a JSON document',
    );
  });

  it('an answer with the wrong fields is told each field; a corrected call is accepted', async () => {
    const r = await run(
      [
        { toolCalls: [{ name: 'StructuredOutput', arguments: { status: 'failed', failures: -1, extra: true } }] },
        { toolCalls: [{ name: 'StructuredOutput', arguments: { status: 'pass', failures: 0 } }] },
      ],
      VERDICT_SCHEMA,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.result).toMatchObject({ structured_output: { status: 'pass', failures: 0 } });
    const rejected = lastUserText(1);
    expect(rejected).toContain('/status: must be one of "pass", "fail"');
    expect(rejected).toContain('/failures: must be >= 0');
    expect(rejected).toContain('/extra: is not a known field of the schema');
    expect(rejected).toContain('3 answers are left');
  });

  it('an answer that never fits ends the run schema_failed (exit 7) with the errors, after 4 answers', async () => {
    const wrong: ScriptedTurn = {
      toolCalls: [{ name: 'StructuredOutput', arguments: { status: 'unknown', failures: 1 } }],
    };
    const r = await run([wrong, wrong, { text: 'I cannot tell.' }, wrong], VERDICT_SCHEMA);
    expect(r.code).toBe(7);
    expect(r.result).toMatchObject({
      outcome: 'schema_failed',
      exit_code: 7,
      structured_output: null,
      schema_errors: ['/status: must be one of "pass", "fail"'],
    });
    expect(r.result.error).toMatch(/did not satisfy the output schema after 4 answers/);
    expect(server.requests).toHaveLength(4);
    expect(lastUserText(3)).toContain('This is the last answer that will be judged');
    expect(r.stderr).toMatch(/did not satisfy the output schema after 4 answers/);
  });

  it('a schema whose top level is not an object is handed in through the tool’s value field', async () => {
    const schema = { type: 'array', items: { type: 'string' }, minItems: 1 };
    const r = await run(
      [{ toolCalls: [{ name: 'StructuredOutput', arguments: { value: ['a.ts', 'b.ts'] } }] }],
      schema,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.result.structured_output).toEqual(['a.ts', 'b.ts']);
    const body = server.requests[0].body as { tools: Array<{ function: { name: string; parameters: unknown } }> };
    expect(body.tools.find((t) => t.function.name === 'StructuredOutput')!.function.parameters).toMatchObject({
      properties: { value: schema },
      required: ['value'],
    });
  });
});

describe('--output-schema in text mode', () => {
  it('stdout is the accepted answer as JSON and nothing else; the transcript goes to stderr', async () => {
    writeFileSync(join(dirs.cwd, 'verdict.schema.json'), JSON.stringify(VERDICT_SCHEMA));
    server.push({ text: 'Verdict:\n```json\n{"status":"pass","failures":0}\n```' });
    const r = await runJarvis(['-p', 'check the build', '--output-schema', 'verdict.schema.json'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('{\n  "status": "pass",\n  "failures": 0\n}\n');
    expect(r.stderr).toContain('• Verdict:');
  });

  it('a schema failure leaves stdout empty and exits 7', async () => {
    writeFileSync(join(dirs.cwd, 'verdict.schema.json'), JSON.stringify(VERDICT_SCHEMA));
    server.push({ text: 'no' }, { text: 'no' }, { text: 'no' }, { text: 'no' });
    const r = await runJarvis(['-p', 'check the build', '--output-schema', 'verdict.schema.json'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
    });
    expect(r.code).toBe(7);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/did not satisfy the output schema after 4 answers/);
  });
});

describe('a bad --output-schema file is a usage error (exit 2) and nothing is sent', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['not JSON', '{ "type": "object", }', /not valid JSON/],
    [
      'not a schema',
      JSON.stringify({ type: 'objekt' }),
      /not valid JSON Schema:\n- \/type: must be one of "array", "boolean"/,
    ],
    ['a misspelt keyword', JSON.stringify({ type: 'object', requried: ['x'] }), /unknown keyword: "requried"/],
    ['a list, not a schema', '["status"]', /must be a JSON object/],
  ];
  for (const [what, text, message] of cases) {
    it(what, async () => {
      const r = await run([], text);
      expect(r.code).toBe(2);
      expect(r.result).toMatchObject({ outcome: 'error', exit_code: 2, session_id: null });
      expect(r.stderr).toMatch(message);
      expect(r.stderr).toContain('--output-schema verdict.schema.json');
      expect(server.requests).toHaveLength(0);
    });
  }

  it('a missing file', async () => {
    const r = await runJarvis(['-p', 'x', '--output-schema', 'nowhere.json'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--output-schema nowhere.json: cannot read it (no such file)');
  });

  it('without -p it is refused like --output-format', async () => {
    const r = await runJarvis(['--output-schema', 'x.json'], { env: cliEnv(dirs), cwd: dirs.cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--output-schema only applies to print mode');
  });
});
