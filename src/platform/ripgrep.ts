// Finds a ripgrep binary: the one packaged with @vscode/ripgrep, else `rg` on PATH, else the path in
// JARVIS_RG_PATH. The packaged module is imported on first use only, never on the start path.
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export type RipgrepSource = 'packaged' | 'path' | 'env';

export interface RipgrepLocation {
  path: string;
  source: RipgrepSource;
}

export interface LocateOptions {
  /** Sources to try, in order (default: packaged, path, env). */
  sources?: readonly RipgrepSource[];
  /** Environment to read PATH and JARVIS_RG_PATH from (default: process.env). */
  env?: NodeJS.ProcessEnv;
}

export const RIPGREP_ENV_VAR = 'JARVIS_RG_PATH';
const DEFAULT_SOURCES: readonly RipgrepSource[] = ['packaged', 'path', 'env'];
const BINARY = process.platform === 'win32' ? 'rg.exe' : 'rg';

export class RipgrepNotFoundError extends Error {}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

async function packagedRipgrep(): Promise<string | undefined> {
  try {
    const mod = (await import('@vscode/ripgrep')) as { rgPath?: string };
    return mod.rgPath && isExecutableFile(mod.rgPath) ? mod.rgPath : undefined;
  } catch (e) {
    // The platform package (@vscode/ripgrep-<os>-<arch>) is optional and may be absent; only that
    // falls through to a ripgrep on PATH.
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') return undefined;
    throw new Error(`@vscode/ripgrep failed to load: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
}

/** The first executable file called `name` in the folders of a PATH value (the clipboard tools use it too). */
export function executableOnPath(name: string, pathVariable: string | undefined): string | undefined {
  for (const dir of (pathVariable ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

export function ripgrepOnPath(pathVariable: string | undefined): string | undefined {
  return executableOnPath(BINARY, pathVariable);
}

async function trySource(source: RipgrepSource, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  if (source === 'packaged') return packagedRipgrep();
  if (source === 'path') return ripgrepOnPath(env.PATH);
  const configured = env[RIPGREP_ENV_VAR];
  if (!configured) return undefined;
  if (!isExecutableFile(configured)) {
    throw new RipgrepNotFoundError(
      `${RIPGREP_ENV_VAR} is set to ${configured}, which is not an executable file. Point it at an rg binary or unset it.`,
    );
  }
  return configured;
}

/** Resolves ripgrep from the given sources; throws RipgrepNotFoundError with what to do when none has it. */
export async function locateRipgrep(options: LocateOptions = {}): Promise<RipgrepLocation> {
  const env = options.env ?? process.env;
  const sources = options.sources ?? DEFAULT_SOURCES;
  for (const source of sources) {
    const path = await trySource(source, env);
    if (path) return { path, source };
  }
  throw new RipgrepNotFoundError(
    `ripgrep (rg) was not found (looked at: ${sources.join(', ')}): the packaged @vscode/ripgrep binary is missing, ` +
      `there is no rg on PATH and ${RIPGREP_ENV_VAR} is not set. Install ripgrep (e.g. apt install ripgrep, brew install ripgrep) ` +
      `or set ${RIPGREP_ENV_VAR} to the path of an rg binary.`,
  );
}

let cached: Promise<RipgrepLocation> | undefined;

/** The default locator, resolved once per process (a failure is not cached, so installing rg helps). */
export function defaultRipgrep(): Promise<RipgrepLocation> {
  cached ??= locateRipgrep().catch((e: unknown) => {
    cached = undefined;
    throw e;
  });
  return cached;
}
