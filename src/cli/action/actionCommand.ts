// `jarvis github-action`: the script behind action.yml (docs/ci.md "The GitHub Action"). It reads the inputs and the
// event, runs the mode, sets the outputs `result` and `structured_output`, and exits with jarvis's exit code.
import { ActionError, openActionContext } from './actionContext';
import { GitHubApiError } from './githubApi';
import { runPromptMode } from './promptMode';
import { runReviewMode } from './reviewMode';

export async function runGitHubAction(source: NodeJS.ProcessEnv = process.env): Promise<number> {
  const out = (text: string) => void process.stdout.write(text);
  try {
    const ctx = openActionContext(source, out);
    const mode = ctx.input('mode') || 'review';
    if (mode === 'review') return await runReviewMode(ctx);
    if (mode === 'prompt') return await runPromptMode(ctx);
    throw new ActionError(`input mode must be review or prompt, got "${mode}".`);
  } catch (e) {
    if (!(e instanceof ActionError) && !(e instanceof GitHubApiError)) throw e;
    out(`::error::${e.message}\n`);
    return 1;
  }
}
