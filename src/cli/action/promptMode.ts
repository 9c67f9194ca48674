// The Action's `prompt` mode (docs/ci.md "Answer @jarvis mentions"): a comment on an issue or a pull request that
// mentions the trigger (`@jarvis`), written by someone with write access, is run as a `jarvis -p` request. With
// permission_mode `comment` the agent only reads and its answer is posted as a comment; with `push` it may change
// files, and what it changed is committed to a new branch that is pushed, and named in the answer.
import { execFileSync } from 'node:child_process';
import { ActionError, capFlags, listInput, writeToolConfig, type ActionContext } from './actionContext';
import { refuseFork } from './reviewMode';

/** GitHub's author associations of people who may push to the repository. */
const WRITERS = new Set(['OWNER', 'MEMBER', 'COLLABORATOR']);
const ANSWER_MARKER = '<!-- jarvis-answer -->';
/** The issue or PR text given to the model as context is cut to this many characters. */
const CONTEXT_CHARS = 4000;
const READ_ONLY_TOOLS = ['Read', 'Grep', 'Glob'];

function mentions(body: string, trigger: string): boolean {
  const escaped = trigger.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^\\w@/])${escaped}(?![\\w-])`, 'i').test(body);
}

function git(cwd: string, args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

export async function runPromptMode(ctx: ActionContext): Promise<number> {
  const comment = ctx.event.comment as { body?: string; author_association?: string; user?: { login?: string } };
  const issue = (ctx.event.issue ?? ctx.event.pull_request) as Record<string, any> | undefined; // eslint-disable-line @typescript-eslint/no-explicit-any -- webhook payload
  if (!comment?.body || !issue) throw new ActionError(`mode prompt runs on comment events, not on ${ctx.eventName}.`);
  const trigger = ctx.input('trigger') || '@jarvis';
  if (!mentions(comment.body, trigger)) {
    ctx.log(`the comment does not mention ${trigger}: nothing to do`);
    return 0;
  }
  if (!WRITERS.has(comment.author_association ?? '')) {
    ctx.log(
      `ignored: ${comment.user?.login ?? 'the author'} (${comment.author_association ?? 'no association'}) has no write access to this repository`,
    );
    return 0;
  }
  const number = issue.number as number;
  if (issue.pull_request || ctx.event.pull_request) {
    const pr = await ctx.api.request<Record<string, unknown>>(
      'GET',
      `/repos/${ctx.repo.owner}/${ctx.repo.name}/pulls/${number}`,
    );
    refuseFork(ctx, pr);
  }
  const mode = ctx.input('permission_mode') || 'comment';
  if (mode !== 'comment' && mode !== 'push')
    throw new ActionError(`permission_mode must be comment or push, got "${mode}".`);
  const allowed = listInput(ctx.input('allowed_tools'));
  if (mode === 'comment' || allowed.length)
    writeToolConfig(ctx.home, mode === 'comment' && !allowed.length ? READ_ONLY_TOOLS : allowed);
  const request = comment.body.replace(new RegExp(trigger.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'ig'), '').trim();
  const what = issue.pull_request || ctx.event.pull_request ? 'pull request' : 'issue';
  const context = `${issue.title ?? ''}\n\n${String(issue.body ?? '').slice(0, CONTEXT_CHARS)}`;
  const prompt = [
    `A request from ${comment.user?.login ?? 'a maintainer'} on ${what} #${number} of ${ctx.repo.owner}/${ctx.repo.name}.`,
    '',
    `<${what.replace(' ', '_')}>\n${context}\n</${what.replace(' ', '_')}>`,
    '',
    mode === 'push'
      ? 'Make the change in the working tree; it will be committed to a new branch for review. Then say what you did.'
      : 'Answer it; your answer is posted as a comment. You can read the repository but not change it.',
    '',
    request,
  ].join('\n');
  const args = ['-p', prompt, '--output-format', 'json', ...capFlags(ctx)];
  if (ctx.input('output_schema')) args.push('--output-schema', ctx.input('output_schema'));
  const run = await ctx.jarvis(args);
  let result: { outcome?: string; text?: string; error?: string | null; structured_output?: unknown };
  try {
    result = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '') as typeof result;
  } catch {
    throw new ActionError(`jarvis exited with ${run.code} without a result (its messages are above).`);
  }
  ctx.setOutput('result', JSON.stringify(result));
  ctx.setOutput('structured_output', JSON.stringify(result.structured_output ?? null));
  let answer =
    result.outcome === 'success'
      ? result.text || '(no answer)'
      : `The request did not complete (${result.outcome}): ${result.error ?? ''}`;
  if (mode === 'push' && result.outcome === 'success' && git(ctx.workspace, ['status', '--porcelain'])) {
    const branch = `jarvis/${what === 'issue' ? 'issue' : 'pr'}-${number}-${process.env.GITHUB_RUN_ID ?? Date.now()}`;
    const who = ['-c', 'user.name=jarvis-code[bot]', '-c', 'user.email=jarvis-code@users.noreply.github.com'];
    git(ctx.workspace, ['checkout', '-q', '-b', branch]);
    git(ctx.workspace, ['add', '-A']);
    git(ctx.workspace, [...who, 'commit', '-q', '-m', `jarvis: ${request.split('\n')[0].slice(0, 60)}`]);
    git(ctx.workspace, ['push', '-q', 'origin', `HEAD:refs/heads/${branch}`]);
    ctx.setOutput('branch', branch);
    answer += `\n\nThe changes are on the branch \`${branch}\`.`;
  }
  await ctx.api.request('POST', `/repos/${ctx.repo.owner}/${ctx.repo.name}/issues/${number}/comments`, {
    body: `${ANSWER_MARKER}\n${answer}`,
  });
  ctx.log(`answered ${what} #${number}`);
  return run.code;
}
