// `jarvis acp` owns stdout for JSON-RPC, so what it has to say goes to stderr (editors show it in their
// agent log) and to the global log file, $JARVIS_CODE_HOME/logs/jarvis-code.log.
import { join } from 'node:path';
import { GLOBAL_LOG_NAME } from '../store/crashLog';
import { logsDir } from '../store/paths';
import { appendPrivateFileSync, mkdirPrivateSync } from '../store/privateFiles';

export type AcpLog = (line: string) => void;

export function acpLog(home: string, stderr: { write(text: string): unknown } = process.stderr): AcpLog {
  let fileOk = true;
  return (line) => {
    stderr.write(`jarvis acp: ${line}\n`);
    if (!fileOk) return;
    try {
      mkdirPrivateSync(logsDir(home));
      appendPrivateFileSync(join(logsDir(home), GLOBAL_LOG_NAME), `${new Date().toISOString()} acp ${line}\n`);
    } catch (e) {
      // Said once; the protocol goes on without the file.
      fileOk = false;
      stderr.write(
        `jarvis acp: cannot write the log file under ${logsDir(home)} (${(e as Error).message}); logging to stderr only\n`,
      );
    }
  };
}
