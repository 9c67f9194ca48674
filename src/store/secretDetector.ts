// Finds credential-shaped text (docs/memory.md "What is never stored"): provider API keys by their
// published prefixes, bearer and JWT tokens, private-key blocks, passwords inside URLs, literal
// `password=`/`secret=`-style assignments, and long random-looking strings next to words such as
// "token" or "secret". It is a shape check, not proof: the memory store refuses anything it flags
// rather than trying to cut the secret out, because a half-redacted record is still a leak.

export interface SecretFinding {
  /** What kind of credential it looks like ("an OpenAI API key"). */
  kind: string;
  index: number;
  length: number;
}

interface SecretShape {
  kind: string;
  pattern: RegExp;
  /** Which capture group is the secret itself (default: the whole match). */
  group?: number;
  /** A further test on the captured value (placeholders and code are not secrets). */
  accept?(value: string): boolean;
}

// Provider prefixes are public documentation facts; the lengths are lower bounds so that newer,
// longer key formats are still caught.
const SHAPES: readonly SecretShape[] = [
  { kind: 'a private key block', pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/g },
  { kind: 'an Anthropic API key', pattern: /\bsk-ant-(?:api|admin|oat)\d{2}-[A-Za-z0-9_-]{20,}/g },
  {
    kind: 'an OpenAI API key',
    pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g,
    accept: (v) => /\d/.test(v) && /[A-Za-z]/.test(v.slice(3)),
  },
  { kind: 'an AWS access key id', pattern: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA)[A-Z0-9]{16}\b/g },
  { kind: 'a GitHub token', pattern: /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}\b/g },
  { kind: 'a GitHub token', pattern: /\bgithub_pat_[A-Za-z0-9_]{40,}\b/g },
  { kind: 'a GitLab token', pattern: /\bgl(?:pat|dt|rt|ptt)-[A-Za-z0-9_-]{20,}/g },
  { kind: 'a Slack token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
  { kind: 'a Slack webhook URL', pattern: /hooks\.slack\.com\/services\/T[A-Z0-9]+\/B[A-Z0-9]+\/[A-Za-z0-9]{16,}/g },
  { kind: 'a Stripe key', pattern: /\b[rsp]k_(?:live|test)_[A-Za-z0-9]{16,}\b/g },
  { kind: 'a Google API key', pattern: /\bAIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])/g },
  { kind: 'a Google OAuth token', pattern: /\bya29\.[0-9A-Za-z_-]{20,}/g },
  { kind: 'a SendGrid API key', pattern: /\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/g },
  { kind: 'an npm token', pattern: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { kind: 'a PyPI token', pattern: /\bpypi-[A-Za-z0-9_-]{50,}/g },
  { kind: 'a Hugging Face token', pattern: /\bhf_[A-Za-z0-9]{30,}\b/g },
  { kind: 'a DigitalOcean token', pattern: /\bdo[pro]_v1_[a-f0-9]{64}\b/g },
  { kind: 'a Shopify token', pattern: /\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b/g },
  { kind: 'a Twilio API key', pattern: /\bSK[0-9a-f]{32}\b/g },
  { kind: 'a Mailgun API key', pattern: /\bkey-[0-9a-f]{32}\b/g },
  { kind: 'a Groq API key', pattern: /\bgsk_[A-Za-z0-9]{40,}\b/g },
  { kind: 'an xAI API key', pattern: /\bxai-[A-Za-z0-9]{40,}\b/g },
  { kind: 'an Azure storage account key', pattern: /AccountKey=([A-Za-z0-9+/]{40,}={0,2})/g, group: 1 },
  { kind: 'a JSON Web Token', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  {
    kind: 'a bearer token',
    pattern: /\bBearer\s+([A-Za-z0-9._~+/-]{16,}=*)/g,
    group: 1,
    accept: (v) => isRandomLooking(v, 16),
  },
  {
    kind: 'basic-auth credentials',
    pattern: /\bBasic\s+([A-Za-z0-9+/]{12,}={0,2})(?![A-Za-z0-9+/=])/g,
    group: 1,
    accept: (v) => /\d|[+/=]/.test(v) && /[a-z]/.test(v) && /[A-Z]/.test(v),
  },
  {
    kind: 'a password inside a URL',
    pattern: /\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:([^\s@/]+)@/gi,
    group: 1,
    accept: (v) => !isPlaceholder(v),
  },
  {
    kind: 'a password or secret assignment',
    // The key word, optionally prefixed (DB_PASSWORD, client_secret), then `=`, or `:` followed by a
    // space or a quote (so `npm run token:refresh` is a script name, not an assignment), then a literal.
    pattern:
      /(?<![A-Za-z0-9])(?:[A-Za-z0-9]+[_-])*(?:password|passwd|passphrase|pwd|secret|api[_-]?key|apikey|access[_-]?key|private[_-]?key|auth[_-]?token|access[_-]?token|refresh[_-]?token|token|credentials?)["']?(?:\s*=\s*|\s*:\s+|\s*:\s*(?=["']))["']?([^\s"',;]{4,})/gi,
    group: 1,
    accept: (v) => !isPlaceholder(v) && !isCode(v),
  },
];

/** Words after which a long random-looking string is taken for a credential. */
const SECRET_WORDS =
  /\b(?:password|passwd|passphrase|secret|token|api[ _-]?key|apikey|credential|credentials|private key|access key|auth)\b/gi;
const NEAR_CHARS = 48;

/** Placeholders, not values: `${DB_PASSWORD}`, `$TOKEN`, `<password>`, `{{secret}}`, `****`, `xxx`. */
function isPlaceholder(value: string): boolean {
  const v = value.replace(/^["'`]|["'`]$/g, '');
  if (/^\$\{?[A-Za-z_][A-Za-z0-9_]*\}?$/.test(v)) return true;
  if (/^%[A-Za-z_][A-Za-z0-9_]*%$/.test(v)) return true;
  if (/^<[^<>]+>$/.test(v) || /^\{\{[^{}]+\}\}$/.test(v) || /^\[[^[\]]+\]$/.test(v)) return true;
  if (
    /^[*xX•.]+$/.test(v) ||
    /^(?:redacted|hidden|none|null|undefined|empty|required|optional|true|false|string|your[_-].*|example|changeme[_-]?later)$/i.test(
      v,
    )
  )
    return true;
  return false;
}

/** Code that reads a secret from elsewhere (`process.env.X`, `getToken()`, `config.secret`) holds none. */
function isCode(value: string): boolean {
  if (value.includes('(')) return true;
  if (
    /^(?:process\.env|os\.environ|env|import\.meta\.env|ENV|settings|config|this|self|options|opts|args)[.[]/.test(
      value,
    )
  )
    return true;
  // A dotted identifier path (`cfg.db.password`) is a reference, not a literal.
  return /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(value);
}

/** Shannon entropy in bits per character. */
function entropy(value: string): number {
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / value.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/**
 * Long, mixed letters and digits, high entropy — and not a hex digest, a UUID or a path, which are
 * identifiers a memory may legitimately mention (commit ids, content hashes).
 */
function isRandomLooking(value: string, minLength = 20): boolean {
  if (value.length < minLength) return false;
  if (/^[0-9a-f]+$/i.test(value)) return false;
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)) return false;
  if (value.includes('/') && /^[\w./-]+$/.test(value) && /\/[a-z]/.test(value)) return false;
  const classes = [/[a-z]/, /[A-Z]/, /\d/].filter((re) => re.test(value)).length;
  if (classes < 2 || !/\d/.test(value)) return false;
  return entropy(value) >= 3.5;
}

const TOKEN_CANDIDATE = /[A-Za-z0-9+/_=.-]{20,}/g;

/** Every credential-shaped span in `text`, first to last (overlapping shapes reported once). */
export function detectSecrets(text: string): SecretFinding[] {
  const findings: SecretFinding[] = [];
  const covered = (index: number) => findings.some((f) => index >= f.index && index < f.index + f.length);
  for (const shape of SHAPES) {
    for (const m of text.matchAll(shape.pattern)) {
      const value = shape.group ? m[shape.group] : m[0];
      if (!value || (shape.accept && !shape.accept(value))) continue;
      const index = m.index + (shape.group ? m[0].lastIndexOf(value) : 0);
      if (!covered(index)) findings.push({ kind: shape.kind, index, length: value.length });
    }
  }
  for (const word of text.matchAll(SECRET_WORDS)) {
    const start = word.index + word[0].length;
    const window = text.slice(start, start + NEAR_CHARS);
    for (const m of window.matchAll(TOKEN_CANDIDATE)) {
      const value = m[0].replace(/[.=-]+$/, '');
      const index = start + m.index;
      if (isRandomLooking(value) && !covered(index))
        findings.push({
          kind: `a random-looking string next to "${word[0].toLowerCase()}"`,
          index,
          length: value.length,
        });
    }
  }
  return findings.sort((a, b) => a.index - b.index);
}
