// The tables behind LaTeX → Unicode (latex.ts): symbols, letters, scripts and font alphabets. Only
// what has a faithful one-character (or short-word) Unicode form is here; anything else makes the
// converter leave the formula as the author wrote it.

/** Commands that are one symbol; relations and arrows get spaces around them (see SPACED). */
export const SYMBOLS: Record<string, string> = {
  // Greek
  alpha: 'α', beta: 'β', gamma: 'γ', delta: 'δ', epsilon: 'ϵ', varepsilon: 'ε', zeta: 'ζ', eta: 'η', theta: 'θ', vartheta: 'ϑ',
  iota: 'ι', kappa: 'κ', lambda: 'λ', mu: 'μ', nu: 'ν', xi: 'ξ', pi: 'π', varpi: 'ϖ', rho: 'ρ', varrho: 'ϱ', sigma: 'σ',
  varsigma: 'ς', tau: 'τ', upsilon: 'υ', phi: 'ϕ', varphi: 'φ', chi: 'χ', psi: 'ψ', omega: 'ω',
  Gamma: 'Γ', Delta: 'Δ', Theta: 'Θ', Lambda: 'Λ', Xi: 'Ξ', Pi: 'Π', Sigma: 'Σ', Upsilon: 'Υ', Phi: 'Φ', Psi: 'Ψ', Omega: 'Ω',
  // Big operators
  sum: '∑', prod: '∏', coprod: '∐', int: '∫', iint: '∬', iiint: '∭', oint: '∮', bigcup: '⋃', bigcap: '⋂',
  // Relations
  le: '≤', leq: '≤', ge: '≥', geq: '≥', ne: '≠', neq: '≠', approx: '≈', equiv: '≡', sim: '∼', simeq: '≃', cong: '≅',
  propto: '∝', ll: '≪', gg: '≫', prec: '≺', succ: '≻', in: '∈', notin: '∉', ni: '∋', subset: '⊂', subseteq: '⊆',
  supset: '⊃', supseteq: '⊇', mid: '∣', perp: '⊥', parallel: '∥', models: '⊨', vdash: '⊢', coloneqq: '≔',
  // Arrows
  to: '→', rightarrow: '→', leftarrow: '←', gets: '←', leftrightarrow: '↔', Rightarrow: '⇒', Leftarrow: '⇐',
  Leftrightarrow: '⇔', iff: '⇔', implies: '⟹', impliedby: '⟸', mapsto: '↦', uparrow: '↑', downarrow: '↓',
  longrightarrow: '⟶', longleftarrow: '⟵', Longrightarrow: '⟹', hookrightarrow: '↪',
  // Binary operators
  pm: '±', mp: '∓', times: '×', div: '÷', cdot: '·', ast: '∗', star: '⋆', circ: '∘', bullet: '•', oplus: '⊕',
  otimes: '⊗', cup: '∪', cap: '∩', setminus: '∖', land: '∧', wedge: '∧', lor: '∨', vee: '∨',
  // Other symbols
  infty: '∞', partial: '∂', nabla: '∇', forall: '∀', exists: '∃', nexists: '∄', neg: '¬', lnot: '¬', emptyset: '∅',
  varnothing: '∅', ell: 'ℓ', hbar: 'ℏ', Re: 'ℜ', Im: 'ℑ', aleph: 'ℵ', angle: '∠', triangle: '△', square: '□', prime: '′',
  degree: '°', ldots: '…', dots: '…', cdots: '⋯', vdots: '⋮', ddots: '⋱', top: '⊤', bot: '⊥', therefore: '∴',
  because: '∵', checkmark: '✓', dagger: '†',
  // Delimiters
  langle: '⟨', rangle: '⟩', lfloor: '⌊', rfloor: '⌋', lceil: '⌈', rceil: '⌉', lvert: '|', rvert: '|', lVert: '‖',
  rVert: '‖', vert: '|', Vert: '‖',
  // Spacing
  quad: '  ', qquad: '    ',
};

/** Symbols written with spaces around them: `a \le b` reads `a ≤ b` whatever the source spacing. */
export const SPACED = new Set([
  'le', 'leq', 'ge', 'geq', 'ne', 'neq', 'approx', 'equiv', 'sim', 'simeq', 'cong', 'propto', 'll', 'gg', 'prec', 'succ',
  'in', 'notin', 'ni', 'subset', 'subseteq', 'supset', 'supseteq', 'models', 'vdash', 'coloneqq', 'to', 'rightarrow',
  'leftarrow', 'gets', 'leftrightarrow', 'Rightarrow', 'Leftarrow', 'Leftrightarrow', 'iff', 'implies', 'impliedby',
  'mapsto', 'longrightarrow', 'longleftarrow', 'Longrightarrow', 'hookrightarrow', 'pm', 'mp', 'times', 'div', 'cup',
  'cap', 'setminus', 'land', 'wedge', 'lor', 'vee', 'oplus', 'otimes',
]);

/** Escaped characters: `\{` is a brace, `\%` a percent sign, `\,` a thin space. */
export const ESCAPES: Record<string, string> = {
  '{': '{', '}': '}', '%': '%', $: '$', _: '_', '&': '&', '#': '#', '|': '‖', ',': ' ', ';': ' ', ':': ' ', '!': '', ' ': ' ',
};

/** Operator names set upright in LaTeX: shown as the word. */
export const OPERATOR_NAMES = new Set([
  'sin', 'cos', 'tan', 'cot', 'sec', 'csc', 'arcsin', 'arccos', 'arctan', 'sinh', 'cosh', 'tanh', 'log', 'ln', 'lg', 'exp',
  'lim', 'liminf', 'limsup', 'max', 'min', 'sup', 'inf', 'det', 'dim', 'ker', 'deg', 'gcd', 'arg', 'Pr', 'mod', 'bmod',
]);

/** Commands that only change the font or size: the argument is shown as it is. */
export const PLAIN_WRAPPERS = new Set(['text', 'textrm', 'textit', 'textbf', 'mathrm', 'mathit', 'mathbf', 'mathsf', 'mathtt', 'operatorname', 'boldsymbol', 'bm', 'mbox', 'displaystyle', 'textstyle']);

/** Commands that do nothing visible here (sizing of delimiters). */
export const IGNORED = new Set(['left', 'right', 'big', 'Big', 'bigg', 'Bigg', 'bigl', 'bigr', 'Bigl', 'Bigr', 'displaystyle', 'textstyle', 'limits', 'nolimits']);

/** Accents over one character: a combining mark after it. */
export const ACCENTS: Record<string, string> = { vec: '\u20D7', hat: '\u0302', widehat: '\u0302', bar: '\u0304', overline: '\u0305', dot: '\u0307', ddot: '\u0308', tilde: '\u0303', widetilde: '\u0303' };

const SUPER_FROM = '0123456789+-=()abcdefghijklmnoprstuvwxyzABDEGHIJKLMNOPRTUVWαβγδεθιφχ';
const SUPER_TO = '⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻᴬᴮᴰᴱᴳᴴᴵᴶᴷᴸᴹᴺᴼᴾᴿᵀᵁⱽᵂᵅᵝᵞᵟᵋᶿᶥᵠᵡ';
const SUB_FROM = '0123456789+-=()aehijklmnoprstuvxβγρφχ';
const SUB_TO = '₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓᵦᵧᵨᵩᵪ';

function charMap(from: string, to: string): Map<string, string> {
  const a = [...from];
  const b = [...to];
  return new Map(a.map((c, i) => [c, b[i]]));
}

export const SUPERSCRIPTS = charMap(SUPER_FROM, SUPER_TO);
export const SUBSCRIPTS = charMap(SUB_FROM, SUB_TO);
SUPERSCRIPTS.set('′', '′').set('∗', '*').set(' ', ' ').set('∘', '°').set('·', '·');
SUBSCRIPTS.set(' ', ' ');

const DOUBLE_STRUCK_SPECIAL: Record<string, string> = { C: 'ℂ', H: 'ℍ', N: 'ℕ', P: 'ℙ', Q: 'ℚ', R: 'ℝ', Z: 'ℤ' };
const CALLIGRAPHIC_SPECIAL: Record<string, string> = { B: 'ℬ', E: 'ℰ', F: 'ℱ', H: 'ℋ', I: 'ℐ', L: 'ℒ', M: 'ℳ', R: 'ℛ' };
const FRAKTUR_SPECIAL: Record<string, string> = { C: 'ℭ', H: 'ℌ', I: 'ℑ', R: 'ℜ', Z: 'ℨ' };

/** A letter in a Unicode mathematical alphabet (𝔸, 𝒜, 𝔄); undefined when there is none. */
function alphabet(special: Record<string, string>, upperBase: number, lowerBase?: number, digitBase?: number): (c: string) => string | undefined {
  return (c) => {
    if (special[c]) return special[c];
    if (c >= 'A' && c <= 'Z') return String.fromCodePoint(upperBase + c.charCodeAt(0) - 65);
    if (lowerBase !== undefined && c >= 'a' && c <= 'z') return String.fromCodePoint(lowerBase + c.charCodeAt(0) - 97);
    if (digitBase !== undefined && c >= '0' && c <= '9') return String.fromCodePoint(digitBase + c.charCodeAt(0) - 48);
    return undefined;
  };
}

export const FONT_ALPHABETS: Record<string, (c: string) => string | undefined> = {
  mathbb: alphabet(DOUBLE_STRUCK_SPECIAL, 0x1d538, 0x1d552, 0x1d7d8),
  mathcal: alphabet(CALLIGRAPHIC_SPECIAL, 0x1d49c),
  mathfrak: alphabet(FRAKTUR_SPECIAL, 0x1d504, 0x1d51e),
};

/** Common fractions with a precomposed character. */
export const VULGAR_FRACTIONS: Record<string, string> = {
  '1/2': '½', '1/3': '⅓', '2/3': '⅔', '1/4': '¼', '3/4': '¾', '1/5': '⅕', '2/5': '⅖', '3/5': '⅗', '4/5': '⅘', '1/6': '⅙',
  '5/6': '⅚', '1/8': '⅛', '3/8': '⅜', '5/8': '⅝', '7/8': '⅞',
};
