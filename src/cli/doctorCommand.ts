// `jarvis doctor [config|tui] [path]`: validate the configuration files without changing them.
import { resolve } from 'node:path';
import { formatDoctorReport, runDoctor, type DoctorTarget } from '../store/doctor';
import { jarvisHome } from '../store/paths';
import { UsageError } from './program';

export async function runDoctorCommand(target: string | undefined, path: string | undefined): Promise<number> {
  if (target !== undefined && target !== 'config' && target !== 'tui') {
    throw new UsageError(`doctor checks "config" or "tui", got "${target}". Usage: jarvis doctor [config|tui] [path]`);
  }
  const report = runDoctor({ home: jarvisHome(), target: target as DoctorTarget | undefined, path: path === undefined ? undefined : resolve(path) });
  process.stdout.write(`${formatDoctorReport(report)}\n`);
  return report.ok ? 0 : 1;
}
