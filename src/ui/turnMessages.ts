// How a turn's end is reported: nothing for a normal end; for an interruption or a failure, what
// happened and what the user can do next.
export interface TurnNotice {
  level: 'info' | 'warning' | 'error';
  text: string;
  hint?: string;
}

export function errorHint(error: string): string {
  const e = error.toLowerCase();
  if (/401|403|auth|api key|unauthori[sz]ed|credential/.test(e))
    return 'Check the API key: config.toml [providers] or JARVIS_MODEL_API_KEY. /status shows the active configuration.';
  if (/quota|balance|billing|insufficient/.test(e))
    return 'The provider account is out of quota; top it up or /model to switch to another model.';
  if (/context|too long|maximum.*tokens|overflow/.test(e))
    return "The conversation no longer fits the model's context: /new starts a fresh session.";
  if (/connect|econn|network|timeout|timed out|fetch failed|socket/.test(e))
    return 'The provider could not be reached. Check the network or base_url, then press ↑ and Enter to send the message again.';
  if (/max_steps|steps/.test(e)) return 'Send a message (e.g. "continue") to let the agent go on.';
  return 'Press ↑ to recall your message and send it again, or /model to try another model.';
}

export function turnEndNotice(reason: string, error?: string): TurnNotice | undefined {
  if (reason === 'completed') return undefined;
  if (reason === 'cancelled') {
    if (error) return { level: 'warning', text: error, hint: 'Tell the agent what to do instead.' };
    return { level: 'warning', text: 'Interrupted.', hint: 'Type what to do next; ↑ recalls your last message.' };
  }
  if (reason === 'blocked')
    return {
      level: 'warning',
      text: error ?? 'An extension blocked the prompt.',
      hint: 'The prompt was not sent to the model; change it or the hook that refuses it.',
    };
  if (reason === 'max_steps')
    return { level: 'warning', text: error ?? 'The turn reached its step limit.', hint: errorHint('max_steps') };
  return { level: 'error', text: error ?? 'The turn failed.', hint: errorHint(error ?? '') };
}
