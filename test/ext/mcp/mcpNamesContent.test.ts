import { describe, expect, it } from 'vitest';
import { mapMcpResult } from '../../../src/ext/mcp/mcpContent';
import { mcpToolName, uniqueMcpToolName } from '../../../src/ext/mcp/mcpToolNames';

describe('MCP tool names', () => {
  it('mcp__<server>__<tool>, with characters providers refuse replaced by _', () => {
    expect(mcpToolName('github', 'create_issue')).toBe('mcp__github__create_issue');
    expect(mcpToolName('my.server', 'get data/v2')).toBe('mcp__my_server__get_data_v2');
  });

  it('names over 64 characters are cut and end with a hash of the full name; two long names stay apart', () => {
    const a = mcpToolName('server', `a_very_long_tool_name_${'x'.repeat(60)}_one`);
    const b = mcpToolName('server', `a_very_long_tool_name_${'x'.repeat(60)}_two`);
    expect(a).toHaveLength(64);
    expect(a).toMatch(/^mcp__server__a_very_long_tool_name_x+_[0-9a-f]{8}$/);
    expect(a).not.toBe(b);
  });

  it('two tools that sanitise alike both stay callable', () => {
    const taken = new Set<string>();
    const first = uniqueMcpToolName('s', 'a.b', taken);
    const second = uniqueMcpToolName('s', 'a_b', taken);
    expect(first).toBe('mcp__s__a_b');
    expect(second).toMatch(/^mcp__s__a_b_[0-9a-f]{8}$/);
  });
});

describe('MCP result content', () => {
  it('maps every content kind', () => {
    const r = mapMcpResult({
      content: [
        { type: 'text', text: 'hello' },
        { type: 'image', mimeType: 'image/png', data: 'iVBO' },
        { type: 'image', mimeType: 'image/x-icon', data: 'AAAA' },
        { type: 'audio', mimeType: 'audio/wav', data: 'AAAAAAAA' },
        { type: 'resource_link', uri: 'file:///a.txt', name: 'a.txt', mimeType: 'text/plain', description: 'notes' },
        { type: 'resource', resource: { uri: 'mem://x', text: 'inside' } },
        { type: 'resource', resource: { uri: 'mem://y', blob: 'AAAA', mimeType: 'application/zip' } },
      ],
      structuredContent: { n: 1 },
      _meta: { trace: 'abc' },
    });
    expect(r.content).toEqual([
      { type: 'text', text: 'hello' },
      { type: 'image', mediaType: 'image/png', data: 'iVBO' },
      { type: 'text', text: '[image of type image/x-icon that cannot be shown to the model]' },
      { type: 'text', text: '[audio (audio/wav, 6 bytes) not shown: audio is not passed to the model]' },
      { type: 'text', text: 'Resource link: a.txt <file:///a.txt> (text/plain) — notes' },
      { type: 'text', text: 'Resource: <mem://x>\ninside' },
      { type: 'text', text: 'Binary resource: <mem://y> (application/zip) (3 bytes, not shown)' },
      { type: 'text', text: 'Structured content:\n{\n  "n": 1\n}' },
      { type: 'text', text: 'Result metadata (_meta):\n{\n  "trace": "abc"\n}' },
    ]);
    expect(r.isError).toBe(false);
  });

  it('an empty result says so; an error result is an error', () => {
    expect(mapMcpResult({ content: [] }).content).toEqual([{ type: 'text', text: 'The tool returned no content.' }]);
    expect(mapMcpResult({ content: [], isError: true })).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'The tool failed and returned no message.' }],
    });
  });
});
