// Which language server serves a file, where its program is and which folder is its workspace root (docs/lsp.md):
// the built-in table below, merged with `[lsp.servers.<name>]` from config.toml.
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { delimiter, dirname, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import picomatch from 'picomatch';

export interface LspServerConfig {
  command: string;
  args: string[];
  /** Globs matched against the file's name ("*.ts"), or its path from the session folder when they have a "/". */
  filePatterns: string[];
  /** Files whose folder is the server's workspace root, looked for upwards from the edited file. */
  rootMarkers: string[];
  initializationOptions?: Record<string, unknown>;
  /** What the missing-server notice tells the user to run. */
  install?: string;
}

export interface LspSettings {
  enabled: boolean;
  /** The longest an Edit or Write result waits for the server's diagnostics. */
  diagnosticsWaitMs: number;
  /**
   * The longest an edit waits for the first diagnostics of a file: while its server starts and loads the project.
   * Past it the result says the file was not checked yet (docs/lsp.md).
   */
  firstDiagnosticsWaitMs: number;
  /** New errors appended to one result, at most. */
  maxDiagnostics: number;
  maxDiagnosticBytes: number;
  servers: Record<string, LspServerConfig>;
}

/**
 * The TypeScript server's install line with pinned major versions (docs/lsp.md): typescript-language-server 6 needs
 * Node 22, and TypeScript 7 is a native program without the lib/tsserver.js the server drives.
 */
export const TYPESCRIPT_INSTALL = 'npm i -g typescript-language-server@5 typescript@5';

export const BUILTIN_LSP_SERVERS: Record<string, LspServerConfig> = {
  typescript: {
    command: 'typescript-language-server',
    args: ['--stdio'],
    filePatterns: ['*.ts', '*.tsx', '*.mts', '*.cts', '*.js', '*.jsx', '*.mjs', '*.cjs'],
    rootMarkers: ['tsconfig.json', 'jsconfig.json', 'package.json'],
    install: TYPESCRIPT_INSTALL,
  },
  python: {
    command: 'pyright-langserver',
    args: ['--stdio'],
    filePatterns: ['*.py', '*.pyi'],
    rootMarkers: ['pyrightconfig.json', 'pyproject.toml', 'setup.py', 'setup.cfg', 'requirements.txt'],
    install: 'npm i -g pyright',
  },
  go: {
    command: 'gopls',
    args: [],
    filePatterns: ['*.go'],
    rootMarkers: ['go.work', 'go.mod'],
    install: 'go install golang.org/x/tools/gopls@latest',
  },
  rust: {
    command: 'rust-analyzer',
    args: [],
    filePatterns: ['*.rs'],
    rootMarkers: ['Cargo.toml'],
    install: 'rustup component add rust-analyzer',
  },
  clangd: {
    command: 'clangd',
    args: [],
    filePatterns: ['*.c', '*.h', '*.cc', '*.cpp', '*.cxx', '*.hpp', '*.hh'],
    rootMarkers: ['compile_commands.json', 'compile_flags.txt', '.clangd'],
    install: 'install clangd with your system package manager (e.g. apt install clangd)',
  },
};

export const DEFAULT_LSP_SETTINGS: LspSettings = {
  enabled: true,
  diagnosticsWaitMs: 1_500,
  firstDiagnosticsWaitMs: 60_000,
  maxDiagnostics: 10,
  maxDiagnosticBytes: 4_096,
  servers: BUILTIN_LSP_SERVERS,
};

const LANGUAGE_IDS: Record<string, string> = {
  '.ts': 'typescript',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.tsx': 'typescriptreact',
  '.js': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  '.jsx': 'javascriptreact',
  '.py': 'python',
  '.pyi': 'python',
  '.go': 'go',
  '.rs': 'rust',
  '.c': 'c',
  '.h': 'c',
  '.cc': 'cpp',
  '.cpp': 'cpp',
  '.cxx': 'cpp',
  '.hpp': 'cpp',
  '.hh': 'cpp',
};

export function languageIdFor(path: string, serverName: string): string {
  return LANGUAGE_IDS[extname(path).toLowerCase()] ?? serverName;
}

/** The first configured server whose patterns match `path` (config order: built-ins first, then added ones). */
export function serverForFile(
  servers: Record<string, LspServerConfig>,
  path: string,
  cwd: string,
): { name: string; config: LspServerConfig } | undefined {
  const fromCwd = relative(cwd, path).split(sep).join('/');
  for (const [name, config] of Object.entries(servers)) {
    const plain = config.filePatterns.filter((p) => !p.includes('/'));
    const pathed = config.filePatterns.filter((p) => p.includes('/'));
    if (plain.length && picomatch(plain, { basename: true, dot: true })(path)) return { name, config };
    if (pathed.length && picomatch(pathed, { dot: true })(fromCwd)) return { name, config };
  }
  return undefined;
}

/** The servers whose root markers `folder` holds (a project file: tsconfig.json, pyproject.toml…), with the marker. */
export function serversForFolder(
  servers: Record<string, LspServerConfig>,
  folder: string,
): Array<{ name: string; config: LspServerConfig; marker: string }> {
  return Object.entries(servers).flatMap(([name, config]) => {
    const marker = config.rootMarkers.find((m) => existsSync(join(folder, m)));
    return marker ? [{ name, config, marker }] : [];
  });
}

/** The nearest folder above `path` holding a root marker, not above the session folder when `path` is inside it. */
export function workspaceRootFor(path: string, markers: readonly string[], cwd: string): string {
  const inside = !relative(cwd, path).startsWith('..') && !isAbsolute(relative(cwd, path));
  let dir = dirname(path);
  // Each pass moves one folder up; it ends at the session folder or the file system's root.
  for (;;) {
    if (markers.some((m) => existsSync(join(dir, m)))) return dir;
    if (inside && dir === cwd) return cwd;
    const up = dirname(dir);
    if (up === dir) return inside ? cwd : dirname(path);
    dir = up;
  }
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * Where `command` is: a path as given (relative to the session folder), else the project's node_modules/.bin from the
 * root up to the session folder, else PATH. Undefined when it is nowhere. `allowed` leaves out places a server may not
 * run from (a server outside the sandbox never runs a program a command could have written: docs/lsp.md).
 */
export function locateServer(
  command: string,
  root: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
  allowed: (file: string) => boolean = () => true,
): string | undefined {
  if (command.includes('/')) {
    const file = resolve(cwd, command);
    return isExecutable(file) && allowed(file) ? file : undefined;
  }
  const bins: string[] = [];
  for (let dir = root; ; dir = dirname(dir)) {
    bins.push(join(dir, 'node_modules', '.bin'));
    if (dir === cwd || dirname(dir) === dir) break;
  }
  if (!bins.includes(join(cwd, 'node_modules', '.bin'))) bins.push(join(cwd, 'node_modules', '.bin'));
  for (const dir of [...bins, ...(env.PATH ?? '').split(delimiter).filter(Boolean)]) {
    const file = join(dir, command);
    if (isExecutable(file) && allowed(file)) return file;
  }
  return undefined;
}
