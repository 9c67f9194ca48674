// The built-in workflows (docs/workflows.md), as script text: they run in the sandbox like any other.
const DEEP_RESEARCH = `export const meta = {
  name: 'deep-research',
  description: 'Researches a question in depth: splits it into sub-questions, investigates them in parallel with read-only subagents, then writes one sourced answer.',
  phases: ['plan', 'research', 'synthesize'],
};

export default async function ({ args, phase, agent, parallel, log }) {
  const question = args.trim();
  if (!question) throw new Error('deep-research needs the question to research as its args.');

  phase('plan');
  const plan = await agent({
    type: 'explore',
    description: 'split the question',
    prompt: 'Split this research question into 3 to 6 independent sub-questions that together answer it. ' +
      'Reply with one sub-question per line and nothing else.\\n\\nQuestion: ' + question,
  });
  const subQuestions = plan.split('\\n').map((line) => line.replace(/^[\\s*\\-\\d.)]+/, '').trim()).filter(Boolean).slice(0, 8);
  if (!subQuestions.length) throw new Error('The planning subagent gave no sub-questions.');
  log(subQuestions.length + ' sub-questions');

  phase('research');
  const findings = await parallel(subQuestions.map((sub, i) => () => agent({
    type: 'explore',
    description: 'research ' + (i + 1) + '/' + subQuestions.length,
    prompt: 'Investigate this sub-question of a larger research question. Cite the files, commands or URLs your findings rest on, ' +
      'and say plainly what you could not establish.\\n\\nSub-question: ' + sub + '\\nLarger question: ' + question,
  })));

  phase('synthesize');
  return agent({
    type: 'explore',
    description: 'synthesize',
    prompt: 'Write one answer to the research question from these findings. Keep their citations, resolve contradictions, ' +
      'and list open points at the end.\\n\\nQuestion: ' + question + '\\n\\n' +
      findings.map((f, i) => '## Finding ' + (i + 1) + ': ' + subQuestions[i] + '\\n' + f).join('\\n\\n'),
  });
}
`;

export const BUILTIN_WORKFLOWS: Record<string, string> = { 'deep-research': DEEP_RESEARCH };
