// `jarvis trust [--revoke] [path]` (docs/ui.md "Workspace trust"): trusting a folder from a script, recorded exactly
// like the interactive UI's "Trust this folder"; the recording itself is engine/runtime/startup/folderTrust.ts.
import { setWorkspaceTrust } from '../store/trust';
import { jarvisHome } from '../store/paths';
import { FolderTrustError, folderOf, settingsHere, trustEffects } from '../engine/runtime/startup/folderTrust';
import { UsageError } from './program';

export function runTrustCommand(path: string | undefined, opts: { revoke?: boolean }): number {
  try {
    return trustCommand(path, opts);
  } catch (e) {
    if (e instanceof FolderTrustError) throw new UsageError(e.message);
    throw e;
  }
}

function trustCommand(path: string | undefined, opts: { revoke?: boolean }): number {
  const home = jarvisHome(process.env);
  const folder = folderOf(path, process.cwd());
  if (opts.revoke) {
    setWorkspaceTrust(home, folder, false, new Date(), undefined, settingsHere(home).compat);
    process.stdout.write(
      `${folder} is not trusted now: its project MCP servers, language servers and project memory stay off.\n` +
        'Recorded as a decision, so the interactive UI does not ask again; trust it again with ' +
        `jarvis trust ${folder}\n`,
    );
    return 0;
  }
  setWorkspaceTrust(home, folder, true, new Date(), undefined, settingsHere(home).compat);
  process.stdout.write(
    [`Trusted ${folder}.`, ...trustEffects(home, folder), `Undo with: jarvis trust --revoke ${folder}`].join('\n') +
      '\n',
  );
  return 0;
}
