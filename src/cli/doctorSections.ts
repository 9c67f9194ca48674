// The parts of `jarvis doctor` beyond the config files (docs/configuration.md): each concern that can find something
// about this machine or project (extensions found in foreign locations, the sandbox, language servers, the model
// endpoint when `--online`) adds one section here, in its own module, loaded only when doctor runs.
export interface DoctorSection {
  title: string;
  /** Plain lines, shown indented under the title. */
  lines: string[];
  /** False when the section found something that must be fixed (doctor then exits 1). */
  ok: boolean;
}

export interface DoctorContext {
  /** The folder doctor was run in (the project). */
  cwd: string;
  /** JARVIS_CODE_HOME. */
  home: string;
  /** `--online`: sections may contact endpoints and start servers. */
  online: boolean;
  env: NodeJS.ProcessEnv;
}

export type DoctorSectionProvider = (ctx: DoctorContext) => Promise<DoctorSection | undefined>;

/** Each entry loads its module on demand, so `jarvis doctor config` stays cheap. */
export const doctorSections: ReadonlyArray<() => Promise<DoctorSectionProvider>> = [
  () => import('./doctorCompat').then((m) => m.compatLocationsSection),
  () => import('./sandboxDoctor').then((m) => m.sandboxDoctor),
  () => import('./doctorOnline').then((m) => m.onlineDoctorProvider),
  () => import('./doctorLsp').then((m) => m.lspDoctor),
  () => import('./doctorMcpTrust').then((m) => m.mcpTrustDoctor),
  () => import('./doctorComputerUse').then((m) => m.computerUseDoctor),
];

export async function runDoctorSections(ctx: DoctorContext): Promise<DoctorSection[]> {
  const sections: DoctorSection[] = [];
  for (const load of doctorSections) {
    const section = await (await load())(ctx);
    if (section) sections.push(section);
  }
  return sections;
}

export function formatDoctorSections(sections: readonly DoctorSection[]): string[] {
  const lines: string[] = [];
  for (const section of sections) {
    lines.push(`${section.title}: ${section.ok ? 'ok' : 'needs attention'}`);
    for (const line of section.lines) lines.push(`  ${line}`);
  }
  return lines;
}
