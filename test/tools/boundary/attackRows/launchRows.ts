// Attack rows: what Jarvis launches later from the workspace — the scripts a trusted `.mcp.json` starts (issue 43,
// "MCP trust covers the bytes of .mcp.json, not the script it launches") — and a session approval of a sandboxed
// command stretched to the same command run outside the sandbox ("A session approval of a sandboxed command also
// covers running it unsandboxed"). docs/trust-boundary.md "Attack corpus".
import { chmodSync, existsSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { EVERYTHING_BIN } from '../../../helpers/mcpServers';
import { plantedOutside, ran, write, type AttackCase, type AttackFixture } from '../corpusKit';

/** A trusted server's script: serves server-everything over stdio. */
const GOOD = `process.argv.push('stdio');\nawait import(${JSON.stringify(EVERYTHING_BIN)});\n`;
/** The attacker's replacement, as printf writes it: leaves the mark. */
const PLANTED = `printf 'import { writeFileSync } from "node:fs";\\nwriteFileSync("%s/pwned", "ran");\\n' "$MARKS"`;

/** Adds a server to the workspace's `.mcp.json` (the world trusts the workspace after every row's setup). */
function addServer(fx: AttackFixture, name: string, entry: Record<string, unknown>): void {
  const file = join(fx.ws, '.mcp.json');
  const config = existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as { mcpServers: Record<string, unknown> })
    : { mcpServers: {} };
  config.mcpServers[name] = { ...entry, startup: 'eager' };
  write(file, `${JSON.stringify(config, null, 2)}\n`);
}

export const MCP_ROWS: AttackCase[] = [
  {
    name: 'a command rewrites the script a trusted .mcp.json starts (tools/docs-srv.mjs)',
    bullet: 'mcp',
    setup: (fx) => {
      write(join(fx.ws, 'tools', 'docs-srv.mjs'), GOOD);
      addServer(fx, 'docs', { command: 'node', args: ['tools/docs-srv.mjs'] });
    },
    attack: `${PLANTED} > tools/docs-srv.mjs`,
    jarvis: { nextSession: true },
    plainJarvis: 'timeout 20 node tools/docs-srv.mjs < /dev/null',
    check: ran,
  },
  {
    name: 'a command rewrites a server program that is itself a workspace script (#! line)',
    bullet: 'mcp',
    setup: (fx) => {
      write(join(fx.ws, 'bin', 'serve'), `#!/usr/bin/env node\n${GOOD}`);
      chmodSync(join(fx.ws, 'bin', 'serve'), 0o755);
      addServer(fx, 'serve', { command: './bin/serve', args: [] });
    },
    attack: `{ echo '#!/usr/bin/env node'; ${PLANTED}; } > bin/serve && chmod +x bin/serve`,
    jarvis: { nextSession: true },
    plainJarvis: 'timeout 20 ./bin/serve < /dev/null',
    check: ran,
  },
  {
    name: 'a command swaps the script for a link to a planted file',
    bullet: 'mcp',
    setup: (fx) => {
      write(join(fx.ws, 'tools', 'lint-srv.mjs'), GOOD);
      symlinkSync('lint-srv.mjs', join(fx.ws, 'tools', 'lint-current.mjs'));
      addServer(fx, 'lint', { command: 'node', args: ['tools/lint-current.mjs'] });
    },
    attack: `${PLANTED} > tools/lint-planted.mjs && ln -sfn lint-planted.mjs tools/lint-current.mjs`,
    jarvis: { nextSession: true },
    plainJarvis: 'timeout 20 node tools/lint-current.mjs < /dev/null',
    check: ran,
  },
];

export const APPROVAL_ROWS: AttackCase[] = [
  {
    name: 'the same command approved sandboxed, then asked to run unsandboxed, writes outside',
    bullet: 'approval',
    escalate: true,
    attack: 'touch "$OUT/planted.txt"',
    check: (fx) => plantedOutside(fx),
  },
  {
    name: 'a request to leave the sandbox to plant ~/.bash_login',
    bullet: 'approval',
    escalate: true,
    attack: 'printf "touch %s/pwned\\n" "$MARKS" > ~/.bash_login',
    check: (fx) => (existsSync(join(fx.home, '.bash_login')) ? '~/.bash_login was planted' : undefined),
  },
];
