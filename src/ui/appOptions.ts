// What the terminal UI is started with (src/cli/interactiveCommand.ts builds it), and the part of it
// that `/reload` reads again.
import type { Terminal } from '@mariozechner/pi-tui';
import type { BaseRuntimeOptions } from '../engine/runtime/sessionControl';
import type { JarvisConfig } from '../store/config';
import type { LoadedMcpServers } from '../store/mcpConfig';
import type { TokenCountingStrategy } from '../store/settings';
import type { RemoteStarter } from './remote/remoteLink';

export interface AppOptions {
  version: string;
  home: string;
  cwd: string;
  config: JarvisConfig;
  configPath: string;
  env: NodeJS.ProcessEnv;
  warnings: string[];
  runtime: BaseRuntimeOptions;
  /** `--session` without an id: open the session picker first. */
  pickSession: boolean;
  /** Tests and the benchmark drive a virtual terminal. */
  terminal?: Terminal;
  /** `[token_counting] strategy` for the footer's context figure and /usage. */
  tokenCounting?: TokenCountingStrategy;
  /** mcp.json servers; the project's untrusted ones start if the user trusts the folder. */
  mcp?: LoadedMcpServers;
  /** Announced to MCP servers as the client name (the identity slug). */
  mcpClientName?: string;
  /** `/reload`: reads config.toml, plugins, skills, agents, hooks and mcp.json again; throws with a message for the user. */
  reloadOptions?: () => Promise<ReloadedOptions>;
  /** `/remote` (docs/remote.md): starts the session server around this UI's session; absent, /remote says so. */
  startRemote?: RemoteStarter;
}

/** What `/reload` reads again. */
export type ReloadedOptions = Pick<
  AppOptions,
  'config' | 'configPath' | 'warnings' | 'runtime' | 'mcp' | 'tokenCounting' | 'mcpClientName'
>;
