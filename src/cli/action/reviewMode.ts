// The Action's `review` mode (docs/ci.md "Review on pull requests"): `jarvis review` of the pull request's diff, then
// ONE review on the pull request — its line comments on lines of the diff, general findings in its body. A later run
// finds the earlier review by its hidden marker: with the same comments it only updates the body; otherwise it posts
// the new review, deletes the earlier one's comments and marks that one superseded.
import { createHash } from 'node:crypto';
import { REVIEW_MARKER, findingMarkdown, reviewMarkdown, type ReviewReport } from '../review/reviewReport';
import { ActionError, capFlags, listInput, type ActionContext } from './actionContext';

const SUPERSEDED_MARKER = '<!-- jarvis-review-superseded -->';

interface Review {
  id: number;
  body: string | null;
  html_url?: string;
  user?: { login?: string; type?: string } | null;
}

/**
 * Jarvis's own earlier reviews: the marker, and an author that is a bot (the workflow token posts as
 * github-actions[bot]). Anyone may write the marker into a review of theirs; such a review is not Jarvis's to edit.
 */
function isOurs(r: Review): boolean {
  return Boolean(r.body?.includes(REVIEW_MARKER)) && r.user?.type === 'Bot';
}

interface LineComment {
  path: string;
  line: number;
  side: 'RIGHT';
  start_line?: number;
  start_side?: 'RIGHT';
  body: string;
}

/** Refuses a pull request from a fork unless the workflow opted in: its code would run with this repository's secrets. */
export function refuseFork(
  ctx: ActionContext,
  pr: { head?: { repo?: { full_name?: string } | null }; base?: { repo?: { full_name?: string } } },
): void {
  const head = pr.head?.repo?.full_name;
  const base = pr.base?.repo?.full_name ?? `${ctx.repo.owner}/${ctx.repo.name}`;
  if (head === base || ctx.flag('allow_forks')) return;
  throw new ActionError(
    `refusing to run on a pull request from ${head ?? 'a deleted fork'}: its changes would be reviewed with this ` +
      "repository's secrets (the model key). Set allow_forks: true in the workflow to allow it.",
  );
}

function lineComments(report: ReviewReport): LineComment[] {
  return report.findings
    .filter((f) => f.line !== undefined)
    .map((f) => ({
      path: f.path,
      side: 'RIGHT' as const,
      ...(f.end_line !== undefined
        ? { start_line: f.line!, start_side: 'RIGHT' as const, line: f.end_line }
        : { line: f.line! }),
      body: findingMarkdown(f),
    }));
}

/** The same comments give the same fingerprint: a run that found the same things updates instead of re-posting. */
function fingerprintOf(comments: LineComment[]): string {
  return createHash('sha256').update(JSON.stringify(comments)).digest('hex').slice(0, 16);
}

export async function runReviewMode(ctx: ActionContext): Promise<number> {
  const pr = ctx.event.pull_request as Record<string, any> | undefined; // eslint-disable-line @typescript-eslint/no-explicit-any -- webhook payload
  if (!pr) throw new ActionError(`mode review runs on pull_request events, not on ${ctx.eventName}.`);
  refuseFork(ctx, pr);
  const args = ['review', '--base', pr.base.sha as string, '--head', pr.head.sha as string, '--output-format', 'json'];
  const paths = listInput(ctx.input('paths'));
  if (paths.length) args.push('--paths', ...paths);
  if (ctx.input('focus')) args.push('--focus', ctx.input('focus'));
  if (ctx.input('fail_on')) args.push('--fail-on', ctx.input('fail_on'));
  args.push(...capFlags(ctx));
  const run = await ctx.jarvis(args);
  let report: ReviewReport;
  try {
    report = JSON.parse(run.stdout) as ReviewReport;
  } catch {
    throw new ActionError(`jarvis review exited with ${run.code} without a report (its messages are above).`);
  }
  ctx.setOutput('result', JSON.stringify(report));
  ctx.setOutput('structured_output', JSON.stringify({ summary: report.summary, findings: report.findings }));
  if (report.run.outcome !== 'success') {
    ctx.log(`::error::the review did not complete (${report.run.outcome}): ${report.run.error ?? ''}`);
    return run.code;
  }
  await postReview(ctx, pr.number as number, pr.head.sha as string, report);
  return run.code;
}

async function postReview(ctx: ActionContext, number: number, commit: string, report: ReviewReport): Promise<void> {
  const base = `/repos/${ctx.repo.owner}/${ctx.repo.name}/pulls/${number}`;
  const comments = lineComments(report);
  const fingerprint = `<!-- jarvis-review-fingerprint: ${fingerprintOf(comments)} -->`;
  const body = `${reviewMarkdown(report, { onlyGeneral: true })}\n${fingerprint}\n`;
  const earlier = (await ctx.api.list<Review>(`${base}/reviews`)).filter(isOurs);
  const same = earlier.at(-1);
  if (same?.body?.includes(fingerprint)) {
    await ctx.api.request('PUT', `${base}/reviews/${same.id}`, { body });
    ctx.log(`updated review ${same.id}: the same ${comments.length} line comments as before`);
    return;
  }
  const posted = await ctx.api.request<Review>('POST', `${base}/reviews`, {
    commit_id: commit,
    event: 'COMMENT',
    body,
    comments,
  });
  ctx.log(`posted review ${posted.id} with ${comments.length} line comments`);
  for (const old of earlier) {
    const oldComments = await ctx.api.list<{ id: number }>(`${base}/reviews/${old.id}/comments`);
    for (const c of oldComments)
      await ctx.api.request('DELETE', `/repos/${ctx.repo.owner}/${ctx.repo.name}/pulls/comments/${c.id}`);
    const link = posted.html_url ? ` ([the new review](${posted.html_url}))` : '';
    await ctx.api.request('PUT', `${base}/reviews/${old.id}`, {
      body: `${SUPERSEDED_MARKER}\nSuperseded by a newer Jarvis review${link}.`,
    });
    ctx.log(`review ${old.id} superseded: ${oldComments.length} line comments removed`);
  }
}
