// The plain-lines fast path of frontmatter (src/ext/frontmatter.ts, plainMapping): whenever it reads a block
// itself, it reads it exactly as YAML does; everything it is not sure of goes to YAML. Real skill files, the
// values YAML treats specially, and a few thousand generated blocks from an alphabet of YAML's special characters.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseMarkdownFile, plainMapping } from '../../src/ext/frontmatter';

function yamlReads(source: string): unknown {
  try {
    return parse(source);
  } catch {
    return 'a YAML error';
  }
}

describe('plain frontmatter lines', () => {
  it('reads skill files as YAML does', () => {
    for (const source of [
      'name: documents-docx\ndescription: Create or edit Word (.docx) documents.',
      'name: review\ndescription: Review a change; list risks, then fixes (C#, F#, [draft]).\nlicense: MIT',
      'name: x\n\ndescription: a blank line between fields is fine   ',
    ]) {
      expect(plainMapping(source)).toEqual(yamlReads(source));
    }
  });

  for (const source of [
    'name: "quoted"',
    "name: 'single'",
    'version: 1.0',
    'count: 12',
    'enabled: true',
    'value: ~',
    'value: null',
    'limit: .inf',
    'allowed-tools: [Read, Grep]',
    'tools:\n  - Read',
    'description: >\n  folded',
    'description: a: b',
    'description: text # comment',
    'description: ends with a colon:',
    'name: a\nname: b',
    'anchor: &a x',
    'alias: *a',
    'tag: !!str 5',
    '__proto__: polluted',
    'true: key',
    'description:\ttab',
    '  indented: field',
    'key:value',
  ]) {
    it(`leaves ${JSON.stringify(source)} to YAML`, () => {
      expect(plainMapping(source)).toBeUndefined();
    });
  }

  it('agrees with YAML on every generated block it reads itself', () => {
    const alphabet = [
      'a',
      'b',
      ' ',
      ':',
      '#',
      '-',
      "'",
      '"',
      '[',
      ']',
      '{',
      '}',
      ',',
      '&',
      '*',
      '!',
      '|',
      '>',
      '%',
      '@',
      '`',
      '?',
      '.',
      '0',
      '1',
      'e',
      '~',
      '\\',
      '<',
      '=',
    ];
    let seed = 42;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    let readItself = 0;
    for (let i = 0; i < 5000; i++) {
      const lines = Array.from({ length: 1 + random(3) }, (_, j) => {
        const value = Array.from({ length: 1 + random(8) }, () => alphabet[random(alphabet.length)]).join('');
        return `k${j}: ${value}`;
      });
      const source = lines.join('\n');
      const plain = plainMapping(source);
      if (plain === undefined) continue;
      readItself++;
      expect(plain, source).toEqual(yamlReads(source));
    }
    expect(readItself).toBeGreaterThan(100);
  });

  it('parseMarkdownFile gives the same fields and lines either way', async () => {
    const file = '---\nname: notes\ndescription: Keep notes.\n---\n# Body\n';
    const read = await parseMarkdownFile(file);
    expect(read).toMatchObject({
      data: { name: 'notes', description: 'Keep notes.' },
      lines: { name: 2, description: 3 },
    });
    expect(read.body).toBe('# Body\n');
  });
});
