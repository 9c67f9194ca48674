// `jarvis doctor [config|tui] [path]`: validate the configuration files without changing them.
// `jarvis doctor libraries`: load and use each lazily loaded library once (doctorLibraries.ts).
import { resolve } from 'node:path';
import { formatDoctorReport, runDoctor, type DoctorTarget } from '../store/doctor';
import { jarvisHome } from '../store/paths';
import { UsageError } from './program';

export async function runDoctorCommand(
  target: string | undefined,
  path: string | undefined,
  online = false,
): Promise<number> {
  if (online && (target !== undefined || path !== undefined)) {
    throw new UsageError('--online checks the whole setup; run jarvis doctor --online without a target or path.');
  }
  if (target === 'libraries') {
    if (path !== undefined) {
      throw new UsageError(`doctor libraries takes no path, got "${path}". Usage: jarvis doctor libraries`);
    }
    const { runLibraryChecks } = await import('./doctorLibraries');
    const result = await runLibraryChecks();
    process.stdout.write(`${result.lines.join('\n')}\n`);
    return result.ok ? 0 : 1;
  }
  if (target !== undefined && target !== 'config' && target !== 'tui') {
    throw new UsageError(
      `doctor checks "config", "tui" or "libraries", got "${target}". ` +
        'Usage: jarvis doctor [config|tui|libraries] [path]',
    );
  }
  const report = runDoctor({
    home: jarvisHome(),
    target: target as DoctorTarget | undefined,
    path: path === undefined ? undefined : resolve(path),
  });
  if (target !== undefined || path !== undefined) {
    process.stdout.write(`${formatDoctorReport(report)}\n`);
    return report.ok ? 0 : 1;
  }
  const { formatDoctorSections, runDoctorSections } = await import('./doctorSections');
  const sections = await runDoctorSections({ cwd: process.cwd(), home: jarvisHome(), online, env: process.env });
  const ok = report.ok && sections.every((s) => s.ok);
  const text = formatDoctorReport({ ...report, ok }).split('\n');
  const closing = text.pop() ?? '';
  process.stdout.write(`${[...text, ...formatDoctorSections(sections), closing].join('\n')}\n`);
  return ok ? 0 : 1;
}
