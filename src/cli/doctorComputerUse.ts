// `jarvis doctor`: whether the installed jarvis-computer-use plugin can work in this session (docs/computer-use.md).
import { computerUseDoctorLines } from '../ext/plugins/officialNotices';
import type { DoctorContext, DoctorSection, DoctorSectionProvider } from './doctorSections';

export const computerUseDoctor: DoctorSectionProvider = async (
  ctx: DoctorContext,
): Promise<DoctorSection | undefined> => {
  const found = await computerUseDoctorLines(ctx.home, ctx.env);
  return found && { title: 'Computer use', ok: found.ok, lines: found.lines };
};
