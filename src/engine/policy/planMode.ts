// Plan mode: a constrained working state in which the agent explores and writes a plan before it
// changes anything. State (on/off, plan file) lives in the journal. While it is on:
//   - restrictions follow what a tool declares it touches, not its name, so they hold for built-in,
//     MCP and plugin tools alike: a call that writes anything but the current plan file, or runs a
//     command or other effect of unknown footprint (`exec`), is refused; read-only calls pass. Bash is
//     the exception the spec makes: it stays governed by the ordinary permission rules (a
//     TurnExtension.checkToolCall, so the refusal comes before any approval question);
//   - writes to the plan file never ask: entering plan mode records session approvals for exactly
//     `Write(<plan>)` and `Edit(<plan>)`. That reuses the approval chain as it is — deny rules still
//     win, the approvals are journalled (resume and replay agree) and cover that one file only;
//   - reminders are injected at step boundaries: the workflow at the first step of every turn, a
//     short reminder every PLAN_REMINDER_EVERY_STEPS steps after that, and a one-off notice when a
//     front end switches plan mode while a turn runs (or off before the next one).
// Leaving it goes through ExitPlanMode's review (InteractionPort.reviewPlan); auto mode approves.
// The plan file lives in the session's scratch folder (`plans/<agentId>/plan-<hex>.md`, store/paths.ts). A plan path
// read back from the journal is used only when it is exactly such a path of this session; any other is replaced by a
// fresh one (a plan of a session made before the scratch folder existed is carried over), so a record can never
// point plan mode's writes, or `/plan clear`'s removal, at another file (docs/sessions.md, "What a resume trusts").
import { randomBytes } from 'node:crypto';
import { basename, join, relative } from 'node:path';
import { readFileBelow, removeBelow, writeFileBelow } from '../../store/ownedFiles';
import { SCRATCH } from '../../store/paths';
import { renderTemplate, type ToolAccess } from '../../tools/defineTool';
import { canonicalPath } from '../../tools/file/pathPolicy';
import offNotice from '../../tools/plan/planModeOff.md';
import reminder from '../../tools/plan/planReminder.md';
import type { PlanModeService, PlanReviewOutcome, PlanReviewRequest } from '../../tools/plan/planService';
import workflow from '../../tools/plan/planWorkflow.md';
import type { EngineEventBody } from '../loop/events';
import type { InteractionPort } from '../delegation/interactions';
import type { TurnExtension } from '../loop/loop';
import type { Session } from '../session/session';

/** The name of a plan file. */
const PLAN_FILE = /^plan-[0-9a-f]{8}\.md$/;
/** After the first step of a turn, the short reminder comes back every this many steps. */
export const PLAN_REMINDER_EVERY_STEPS = 5;
/** Tools plan mode leaves to the ordinary permission rules whatever they touch (Bash; see docs/plan-goals-context.md). */
export const PLAN_RULE_GOVERNED_TOOLS: readonly string[] = ['Bash'];

/** Why plan mode refuses a call with these accesses (`planPath`: the plan file it may write), if it does. */
export function planModeRefusal(
  toolName: string,
  accesses: readonly ToolAccess[],
  planPath: string | undefined,
): string | undefined {
  if (PLAN_RULE_GOVERNED_TOOLS.includes(toolName)) return undefined;
  if (accesses.some((a) => a.kind === 'exec')) {
    return `${toolName} is blocked in plan mode: it runs a command or changes something outside the plan. Finish the plan and get it approved with ExitPlanMode first.`;
  }
  const outside = accesses.find((a) => a.kind === 'write' && a.path !== planPath);
  if (outside) {
    return `Plan mode is on: ${toolName} may only write the plan file ${planPath}, not ${outside.kind === 'write' ? outside.path : 'that path'}. Put the intended change in the plan, and call ExitPlanMode to ask for approval before implementing it.`;
  }
  return undefined;
}

export interface PlanModeDeps {
  interactionPort?: InteractionPort;
  emit(event: EngineEventBody): void;
}

export class PlanMode implements PlanModeService {
  private pendingNotice: 'on' | 'off' | undefined;
  private turnId: string | undefined;
  private step = 0;

  constructor(
    private readonly session: Session,
    private readonly deps: PlanModeDeps,
  ) {
    this.adoptRecordedPlanPath();
  }

  /** This agent's plans folder, below the canonical scratch folder and never resolved further (see above). */
  private get plansDir(): string {
    return join(canonicalPath(this.session.scratchDir), SCRATCH.plans, this.session.agentId);
  }

  private isOwnPlanPath(path: string): boolean {
    return PLAN_FILE.test(basename(path)) && path === join(this.plansDir, basename(path));
  }

  private adoptRecordedPlanPath(): void {
    const recorded = this.session.state.planMode.planPath;
    if (recorded === undefined || this.isOwnPlanPath(recorded)) return;
    const planPath = this.newPlanPath();
    this.carryOverLegacyPlan(recorded, planPath);
    this.session.commit({ type: 'plan_mode', active: this.active, planPath });
    if (this.active) this.allowPlanWrites(planPath);
  }

  /** A plan file of the session folder's `agents/<agentId>/plans/` (before the scratch folder) moves to `planPath`. */
  private carryOverLegacyPlan(recorded: string, planPath: string): void {
    const dir = this.session.dir;
    const legacy = join('agents', this.session.agentId, 'plans', basename(recorded));
    if (!PLAN_FILE.test(basename(recorded)) || recorded !== join(canonicalPath(dir), legacy)) return;
    const scratch = canonicalPath(this.session.scratchDir);
    try {
      const bytes = readFileBelow(dir, legacy);
      writeFileBelow(scratch, relative(scratch, planPath), bytes, { makeDirs: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return; // no plan was written yet
      const why = e instanceof Error ? e.message : String(e);
      this.deps.emit({
        type: 'notice',
        level: 'warning',
        text: `The plan file ${recorded} was not carried over: ${why}`,
      });
    }
  }

  get active(): boolean {
    return this.session.state.planMode.active;
  }

  get planPath(): string | undefined {
    return this.session.state.planMode.planPath;
  }

  /**
   * Front-end API (/plan on|off, Shift-Tab, --plan, default_plan_mode): switches plan mode without
   * a review. Never creates the plan file. The agent is told at its next step boundary.
   */
  setPlanMode(active: boolean): void {
    if (this.switchTo(active)) this.pendingNotice = active ? 'on' : 'off';
  }

  /** Shift-Tab: flips plan mode; returns the new state. */
  togglePlanMode(): boolean {
    this.setPlanMode(!this.active);
    return this.active;
  }

  /** /plan clear (idle only): deletes the plan file and starts a fresh one; returns its path. */
  clearPlan(): string {
    const current = this.planPath;
    if (current && this.isOwnPlanPath(current)) {
      const scratch = canonicalPath(this.session.scratchDir);
      try {
        removeBelow(scratch, relative(scratch, current));
      } catch (e) {
        // A link planted on the way: nothing is removed through it; the fresh plan file below is used instead.
        const why = e instanceof Error ? e.message : String(e);
        this.deps.emit({ type: 'notice', level: 'warning', text: `The plan file ${current} was not removed: ${why}` });
      }
    }
    const planPath = this.newPlanPath();
    this.session.commit({ type: 'plan_mode', active: this.active, planPath });
    if (this.active) this.allowPlanWrites(planPath);
    this.deps.emit({ type: 'plan_mode', active: this.active, planPath });
    return planPath;
  }

  enter(): { planPath: string; alreadyActive: boolean } {
    const alreadyActive = this.active;
    this.switchTo(true);
    return { planPath: this.planPath!, alreadyActive };
  }

  async review(request: Omit<PlanReviewRequest, 'planPath'>, signal: AbortSignal): Promise<PlanReviewOutcome> {
    const planPath = this.planPath!;
    if (this.session.state.mode === 'auto') {
      this.switchTo(false);
      return { status: 'reviewed', answer: { decision: 'approve' }, autoApproved: true };
    }
    const port = this.deps.interactionPort;
    if (!port)
      return { status: 'unavailable', reason: 'this session has no interactive front end to show the plan to.' };
    const answer = await port.reviewPlan({ planPath, plan: request.plan, options: request.options }, signal);
    if (answer.decision === 'approve' || answer.decision === 'reject_and_exit') this.switchTo(false);
    // A front end may only pick one of the offered options.
    if (answer.decision === 'approve' && answer.option && !request.options.some((o) => o.label === answer.option)) {
      return { status: 'reviewed', answer: { decision: 'approve' }, autoApproved: false };
    }
    return { status: 'reviewed', answer, autoApproved: false };
  }

  readonly extension: TurnExtension = {
    beforeStep: () => this.beforeStep(),
    checkToolCall: (call) => this.checkToolCall(call.toolName, call.accesses),
  };

  private checkToolCall(toolName: string, accesses: readonly ToolAccess[]): string | undefined {
    return this.active ? planModeRefusal(toolName, accesses, this.planPath) : undefined;
  }

  private beforeStep(): void {
    const turnId = this.session.state.openTurn?.turnId;
    if (turnId !== this.turnId) {
      this.turnId = turnId;
      this.step = 0;
    }
    this.step++;
    const notice = this.pendingNotice;
    this.pendingNotice = undefined;
    if (!this.active) {
      if (notice === 'off') this.inject(offNotice.trim());
      return;
    }
    const planPath = this.planPath!;
    if (this.step === 1 || notice === 'on') {
      this.inject(`<system-reminder>\n${renderTemplate(workflow.trim(), { PLAN_PATH: planPath })}\n</system-reminder>`);
    } else if ((this.step - 1) % PLAN_REMINDER_EVERY_STEPS === 0) {
      this.inject(renderTemplate(reminder.trim(), { PLAN_PATH: planPath }));
    }
  }

  private inject(text: string): void {
    this.session.commit({ type: 'message', message: { role: 'user', content: [{ type: 'text', text }] } });
  }

  /** Returns true when the state changed. */
  private switchTo(active: boolean): boolean {
    if (active === this.active) return false;
    const planPath = this.planPath ?? this.newPlanPath();
    this.session.commit({ type: 'plan_mode', active, planPath });
    if (active) this.allowPlanWrites(planPath);
    this.deps.emit({ type: 'plan_mode', active, planPath });
    return true;
  }

  private allowPlanWrites(planPath: string): void {
    for (const pattern of [`Write(${planPath})`, `Edit(${planPath})`]) {
      if (!this.session.state.sessionApprovals.includes(pattern))
        this.session.commit({ type: 'session_approval', pattern });
    }
  }

  private newPlanPath(): string {
    // Canonical up to the scratch folder, as the file tools report paths, so the restriction and the approvals match
    // exactly — and not resolved below it: a link a command planted there then makes the paths differ (refused).
    return join(this.plansDir, `plan-${randomBytes(4).toString('hex')}.md`);
  }
}
