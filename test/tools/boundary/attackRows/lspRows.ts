// Attack rows: language servers planted by a command (issue 43, "Language servers": a server binary in
// node_modules/.bin, a checkout cloned inside the trusted folder, a project TypeScript), each started by Jarvis on
// the next session's Read and Edit of a TypeScript file. In plain bash, `plainJarvis` starts the planted program the
// way Jarvis did before (unconfined). Each row's folder is a copy of test/fixtures/lsp/ts-project inside the trusted
// workspace's own checkout. The same Edit in a project nobody planted in gets its diagnostics (LSP_LEGIT).
// docs/trust-boundary.md "Attack corpus", docs/lsp.md "Where servers run".
import { cpSync } from 'node:fs';
import { resolve } from 'node:path';
import { ran, type AttackCase, type AttackFixture } from '../corpusKit';

export const TS_PROJECT = resolve(__dirname, '../../../fixtures/lsp/ts-project');
const copyProject = (fx: AttackFixture) => cpSync(TS_PROJECT, fx.ws, { recursive: true });

/** A server that leaves the mark when it starts, then reads its input and never answers, as printf writes it. */
const SERVER = `printf '#!/bin/sh\\ntouch %s/pwned\\nexec cat > /dev/null\\n' "$MARKS"`;
const plantServer = (at: string) =>
  `mkdir -p ${at}/node_modules/.bin && ${SERVER} > ${at}/node_modules/.bin/typescript-language-server && ` +
  `chmod +x ${at}/node_modules/.bin/typescript-language-server`;

/** A project TypeScript (node_modules/typescript) whose tsserver.js is what `printf` with these arguments prints. */
const TYPESCRIPT = (printf: string) =>
  'mkdir -p node_modules/typescript/lib && ' +
  `echo '{"name":"typescript","version":"5.9.3","main":"lib/typescript.js"}' > node_modules/typescript/package.json && ` +
  `printf ${printf} > node_modules/typescript/lib/tsserver.js`;

/** The Edit made after the Read: a change that type-checks. */
export const CART_EDIT = { old_string: 'formatPrice(total)', new_string: 'formatPrice(total + 0)' };

export const LSP_ROWS: AttackCase[] = [
  {
    name: 'a server binary planted in node_modules/.bin by a command, started by the next Read',
    bullet: 'lsp',
    checkout: 'workspace',
    setup: copyProject,
    // With a TypeScript beside it, as an install has, so Jarvis's install check lets the planted server start.
    attack: `${plantServer('.')} && ${TYPESCRIPT(`'// tsserver\\n'`)}`,
    jarvis: { read: 'src/cart.ts', edit: CART_EDIT },
    plainJarvis: 'timeout 10 node_modules/.bin/typescript-language-server --stdio < /dev/null',
    check: ran,
  },
  {
    name: 'a checkout cloned inside the trusted folder by a command, with its own server',
    bullet: 'lsp',
    checkout: 'workspace',
    setup: copyProject,
    attack:
      'mkdir -p vendor/lib && git -C vendor/lib init -q && echo "{}" > vendor/lib/package.json && ' +
      `echo "export const x: number = 1;" > vendor/lib/x.ts && ${plantServer('vendor/lib')}`,
    jarvis: { read: 'vendor/lib/x.ts', edit: { old_string: '1;', new_string: '2;' } },
    plainJarvis: 'cd vendor/lib && timeout 10 node_modules/.bin/typescript-language-server --stdio < /dev/null',
    check: ran,
  },
  {
    name: 'a project TypeScript planted by a command, loaded by the global server',
    bullet: 'lsp',
    checkout: 'workspace',
    setup: copyProject,
    attack: TYPESCRIPT(`'require("fs").writeFileSync("%s/pwned", "ran"); setInterval(() => {}, 1000);\\n' "$MARKS"`),
    jarvis: { read: 'src/cart.ts', edit: CART_EDIT },
    plainJarvis: 'timeout 3 node node_modules/typescript/lib/tsserver.js < /dev/null',
    check: ran,
  },
];
