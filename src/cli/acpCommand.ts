// `jarvis acp`: serves the Agent Client Protocol on stdin/stdout for an editor (docs/acp.md). stdout
// carries JSON-RPC only, so everything else that would print there is sent to stderr instead.
import { Readable } from 'node:stream';
import { ndJsonStream } from '@agentclientprotocol/sdk';
import { acpAgentApp, idleSessionMsFrom, SessionSetupError } from '../acp/acpAgent';
import { acpLog } from '../acp/acpLog';
import { orderedAfterInitialize } from '../acp/initializeOrder';
import type { PreparedSession } from '../acp/acpSession';
import { jarvisHome } from '../store/paths';
import { installLastResort } from './lastResort';

/** Exit code of a second interrupt (128 + SIGINT), as in print mode. */
const EXIT_INTERRUPTED = 130;

async function prepare(cwd: string): Promise<PreparedSession> {
  // Configuration loads with the first session, so initialize is answered before it is read.
  const { loadExtensions, loadStartup, StartupError } = await import('../engine/runtime/startup/startup');
  try {
    const startup = loadStartup({}, { nonInteractive: false, cwd });
    // Skills, agents and plugins (their hooks and MCP servers too), as in the terminal UI.
    await loadExtensions(startup, {});
    return {
      runtime: startup.runtime,
      models: { config: startup.config, configPath: startup.configPath, env: process.env },
      mcpServers: startup.mcp.servers,
      mcpDefaults: startup.settings.mcp,
      clientName: startup.settings.identity.slug,
      warnings: startup.warnings,
    };
  } catch (e) {
    if (e instanceof StartupError)
      throw new SessionSetupError(e.message.replace(/^jarvis: /, ''), e.problem === 'model');
    throw e;
  }
}

export async function runAcpCommand(version: string): Promise<number> {
  const protocolOut = process.stdout.write.bind(process.stdout);
  // Whatever else writes to stdout (a library's console.log) goes to stderr: one stray line would
  // break the editor's JSON-RPC parser.
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: never[]) =>
    process.stderr.write(chunk, ...rest)) as typeof process.stdout.write;
  const home = jarvisHome(process.env);
  installLastResort(home);
  const log = acpLog(home);
  const idle = idleSessionMsFrom(process.env);
  if (idle.warning) log(idle.warning);
  const { app, closeAll } = acpAgentApp({ version, home, prepare, log, idleSessionMs: idle.ms });
  const output = new WritableStream<Uint8Array>({
    write: (chunk) =>
      new Promise<void>((resolve, reject) => void protocolOut(chunk, (e) => (e ? reject(e) : resolve()))),
  });
  const input = Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>;
  const connection = app.connect(orderedAfterInitialize(ndJsonStream(output, input)));
  // The first SIGINT or SIGTERM closes the connection and every session gently; another one while that runs
  // exits at once, and what the sessions started is killed on the way out (platform/ownedGroups.ts).
  let stopping = false;
  const stop = () => {
    if (stopping) {
      process.stderr.write('jarvis acp: interrupted again; stopping everything now\n');
      process.exit(EXIT_INTERRUPTED);
    }
    stopping = true;
    connection.close();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  await connection.closed;
  await closeAll();
  process.off('SIGTERM', stop);
  process.off('SIGINT', stop);
  process.stdin.destroy();
  return 0;
}
