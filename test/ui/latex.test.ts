// LaTeX → Unicode in answers (docs/ui.md "LaTeX"): a corpus of what converts, what stays as written,
// and what must never be touched (code, prices, shell variables).
import { describe, expect, it } from 'vitest';
import { renderLatex } from '../../src/ui/latex';
import { SUBSCRIPTS, SUPERSCRIPTS } from '../../src/ui/latexSymbols';
import { loadTheme } from '../../src/ui/theme';
import { AssistantBlock } from '../../src/ui/transcript/messageBlocks';

const CONVERTED: Array<[string, string]> = [
  ['$\\alpha + \\beta^2$', 'α + β²'],
  ['$\\frac{a}{b}$', 'a/b'],
  ['$\\frac{1}{2}$', '½'],
  ['$\\frac{a+b}{c}$', '(a+b)/c'],
  ['$\\frac{n(n+1)}{2}$', '(n(n+1))/2'],
  ['$x_i^2$', 'xᵢ²'],
  ['$x_{n+1}$', 'xₙ₊₁'],
  ['$x_{max}$', 'xₘₐₓ'],
  ['$x_{bd}$', 'x\\_(bd)'],
  ['$\\sqrt{x}$', '√x'],
  ['$\\sqrt{x+1}$', '√(x+1)'],
  ['$\\sqrt[3]{8}$', '∛8'],
  ['$\\sqrt[n]{x}$', 'ⁿ√x'],
  ['$\\int_0^1 x\\,dx$', '∫₀¹ x dx'],
  ['$a \\le b$', 'a ≤ b'],
  ['$a\\leq b \\ne c$', 'a ≤ b ≠ c'],
  ['$x \\to \\infty$', 'x → ∞'],
  ['$\\mathbb{R}^n$', 'ℝⁿ'],
  ['$\\mathbb{Z}$', 'ℤ'],
  ['$\\mathcal{L}$', 'ℒ'],
  ['\\(\\forall x \\in \\mathbb{N}\\)', '∀ x ∈ ℕ'],
  ['$\\lim_{x \\to 0} \\frac{\\sin x}{x} = 1$', 'lim\\_(x → 0) (sin x)/x = 1'],
  ['$e^{i\\pi} + 1 = 0$', 'e^(iπ) + 1 = 0'],
  ['$e^{in}$', 'eⁱⁿ'],
  ['$\\vec{v}$', 'v\u20D7'],
  ['$\\hat{x}$', 'x\u0302'],
  ['$\\left( a \\cdot b \\right)$', '( a · b )'],
  ['$f(x)$', 'f(x)'],
  ['$n$', 'n'],
  ['$\\{1, 2\\}$', '{1, 2}'],
  ['$\\text{if } x > 0$', 'if x > 0'],
  ['$\\sum_{i=1}^{n} i$', '∑ᵢ₌₁ⁿ i'],
  ['$A \\Rightarrow B$', 'A ⇒ B'],
  ['$\\neg p \\land q$', '¬ p ∧ q'],
  ['$a \\not= b$', 'a =\u0338 b'],
];

describe('renderLatex — converts simple formulas', () => {
  it.each(CONVERTED)('%s → %s', (source, expected) => {
    expect(renderLatex(source)).toBe(expected);
  });

  it('converts inline math inside a sentence and keeps the prose', () => {
    expect(renderLatex('Euler: $e^{i\\pi} + 1 = 0$, neat.')).toBe('Euler: e^(iπ) + 1 = 0, neat.');
    expect(renderLatex('So \\(a^2 + b^2 = c^2\\) holds.')).toBe('So a² + b² = c² holds.');
  });

  it('puts display math on a line of its own', () => {
    expect(renderLatex('Sum:\n$$\n\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}\n$$\nDone.')).toBe(
      'Sum:\n\n∑ᵢ₌₁ⁿ i = (n(n+1))/2\n\nDone.',
    );
    expect(renderLatex('\\[E = mc^2\\]')).toBe('\nE = mc²\n');
  });

  it('escapes Markdown markup characters that a formula produces', () => {
    expect(renderLatex('$x_{bd} + 1$')).toBe('x\\_(bd) + 1');
  });
});

describe('renderLatex — leaves text alone', () => {
  const UNCHANGED = [
    'It costs $5 and $10.',
    'Between $5-$10 per month.',
    'Prices: $3.50, $4, and $12.',
    'echo $PATH:$HOME',
    'Use `$x^2$` in code.',
    'Inline ``a $b^2$ c`` code.',
    '```latex\n$x^2 + \\frac{1}{2}$\n```',
    '~~~\n\\(a\\)\n~~~',
    'Para.\n\n    indented $x^2$ code\n',
    'An escaped \\$x^2\\$ pair.',
    'A lone $ sign.',
    '$ x$ has a space after the opening dollar.',
    '\\[\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}\\]',
    '$\\frac{a}{b$',
    '$\\unknowncommand{x}$',
    'No math at all.',
    '$$ $$',
  ];
  it.each(UNCHANGED)('%j', (source) => {
    expect(renderLatex(source)).toBe(source);
  });

  it('returns the very same string when there is nothing to convert (the streaming fast path)', () => {
    const text = 'plain **markdown** with `code`';
    expect(renderLatex(text)).toBe(text);
  });

  it('converts the math around code but not inside it', () => {
    expect(renderLatex('$\\alpha$ and `$\\alpha$` and $\\beta$')).toBe('α and `$\\alpha$` and β');
    expect(renderLatex('$x^2$\n```\n$x^2$\n```\n$y^2$')).toBe('x²\n```\n$x^2$\n```\ny²');
  });
});

describe('script tables', () => {
  it('map every listed character', () => {
    for (const [from, to] of [...SUPERSCRIPTS, ...SUBSCRIPTS]) {
      expect([...from]).toHaveLength(1);
      expect([...to].length).toBeGreaterThanOrEqual(1);
    }
    expect(SUPERSCRIPTS.get('z')).toBe('ᶻ');
    expect(SUPERSCRIPTS.get('χ')).toBe('ᵡ');
    expect(SUBSCRIPTS.get('x')).toBe('ₓ');
    expect(SUBSCRIPTS.get('χ')).toBe('ᵪ');
  });
});

describe('answers in the transcript', () => {
  const plain = (lines: string[]) => lines.join('\n').replace(/\x1b\[[0-9;]*m/g, '');

  it('shows converted formulas, and the source when render_latex is off', () => {
    const theme = loadTheme('dark', '/nonexistent').theme;
    const on = new AssistantBlock(
      { theme, expanded: false, cwd: '/w' },
      'We get $\\alpha^2 \\le \\frac{1}{2}$ and $y_{bd}$ here.',
    );
    expect(plain(on.render(80))).toContain('We get α² ≤ ½ and y_(bd) here.');
    const off = new AssistantBlock(
      { theme, expanded: false, cwd: '/w', renderLatex: false },
      'We get $\\alpha^2$ here.',
    );
    expect(plain(off.render(80))).toContain('We get $\\alpha^2$ here.');
  });
});
