// git read as a wrapper (docs/approvals.md, "git"): git has many ways to run another program — config
// given with `-c` (aliases starting with `!`, core.pager, core.fsmonitor, core.sshCommand…), options such
// as `--upload-pack` or `difftool -x`, and subcommands such as `rebase --exec` or `bisect run`. Any of
// them makes the line not fully modelled, so `allow Bash(git *)` does not cover it. git's subcommand is
// also found past its global options, so `git -C . push` is `git push` to a deny or ask rule.
import type { ShellWord } from './shellWrappers';

export interface GitReading {
  /** The subcommand and its arguments, global options removed: `['push', 'origin']` for `git -C . push origin`. */
  subcommand: ShellWord[];
  /** Why the line may run a program other than git (empty when it does not). */
  hazards: string[];
  /** Shell strings git would run (`!…` aliases, command-valued config): read for deny rules. */
  scripts: Array<{ script: string; via: string }>;
}

/** Global options that take the next word as their value (or `=value`). */
const VALUED = new Set([
  '-C',
  '-c',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--config-env',
  '--super-prefix',
  '--attr-source',
  '--list-cmds',
]);
/** Global options without a value. */
const FLAGS = new Set([
  '-p',
  '--paginate',
  '-P',
  '--no-pager',
  '--bare',
  '--no-replace-objects',
  '--no-lazy-fetch',
  '--literal-pathspecs',
  '--glob-pathspecs',
  '--noglob-pathspecs',
  '--icase-pathspecs',
  '--no-optional-locks',
  '--no-advice',
  '--exec-path',
  '--html-path',
  '--man-path',
  '--info-path',
  '--version',
  '--help',
  '-v',
  '-h',
]);

/**
 * Config keys git only reads as data (names, colours, formats, behaviour flags). Every other key is taken as
 * possibly running a program: git has dozens that do (core.pager, core.fsmonitor, diff.*.textconv,
 * filter.*.smudge, credential.helper, include.path…), and new ones appear with new versions.
 */
const DATA_SECTIONS =
  'user|author|committer|color|advice|column|i18n|pretty|status|log|blame|grep|branch|tag|rerere|gc|pack|index';
const DATA_CORE =
  'quotepath|autocrlf|safecrlf|eol|filemode|ignorecase|abbrev|longpaths|precomposeunicode|whitespace|symlinks|' +
  'commentchar|commentstring|bigfilethreshold|compression|excludesfile|attributesfile|untrackedcache|preloadindex|' +
  'checkstat|trustctime|splitindex';
const BEHAVIOUR_SECTIONS = 'commit|merge|pull|push|rebase|fetch|diff|format|am|apply|clone|checkout|submodule|worktree';
const BEHAVIOUR_NAMES =
  'verbose|ff|rebase|default|autostash|autosquash|prune|prunetags|renames|algorithm|noprefix|mnemonicprefix|' +
  'colormoved|context|conflictstyle|stat|cleanup|status|whitespace|defaultremote|recurse|recursesubmodules|' +
  'autosetupremote|followtags|updaterefs|missingcommitscheck|abbreviatecommands|indentheuristic|relative|' +
  'suppressblankempty|wordregex|dirstat|interhunkcontext|signoff|numbered|thread|gpgsign';
const DATA_KEYS = [
  new RegExp(`^(${DATA_SECTIONS})\\.[^.]+$`),
  /^color\.[^.]+\.[^.]+$/,
  new RegExp(`^core\\.(${DATA_CORE})$`),
  /^init\.defaultbranch$/,
  new RegExp(`^(${BEHAVIOUR_SECTIONS})\\.(${BEHAVIOUR_NAMES})$`),
];

/** Subcommand options whose value is a program or a shell command. */
const COMMAND_OPTIONS = new RegExp(
  '^--(upload-pack|receive-pack|exec|extcmd|open-files-in-pager|tree-filter|index-filter|msg-filter|env-filter|' +
    'parent-filter|commit-filter|tag-name-filter|smtp-server|to-cmd|cc-cmd|header-cmd|sendmail-cmd|httpd|browser|' +
    'access-hook|tool)(=|$)',
);
/** Short options that run a program, per subcommand. */
const COMMAND_SHORT: Record<string, RegExp> = {
  difftool: /^-[a-zA-Z]*[xt]/,
  rebase: /^-[a-zA-Z]*x/,
  clone: /^(-[a-zA-Z]*u|--template(=|$))/,
  init: /^--template(=|$)/,
  grep: /^-[a-zA-Z]*O/,
};
/** Subcommands that run a command given to them, or a configured tool. */
const RUNNING = new Map<string, string>([
  ['filter-branch', 'git filter-branch runs its filters as shell commands'],
  ['mergetool', 'git mergetool runs a configured merge tool'],
  ['difftool', 'git difftool runs a configured diff tool'],
  ['send-email', 'git send-email can run configured programs'],
  ['instaweb', 'git instaweb starts a web server and a browser'],
  ['web--browse', 'git web--browse starts a browser'],
  ['daemon', 'git daemon runs its hooks'],
  ['credential', 'git credential runs the configured credential helper'],
]);

function isDataKey(key: string): boolean {
  const k = key.toLowerCase();
  return DATA_KEYS.some((re) => re.test(k));
}

type ConfigFinding = { hazard?: string; script?: { script: string; via: string } };

function configHazard(setting: ShellWord, how: string): ConfigFinding {
  if (!setting.literal) {
    return { hazard: `git ${how} ${setting.text} (config known only at run time can make git run a program)` };
  }
  const eq = setting.text.indexOf('=');
  const key = eq < 0 ? setting.text : setting.text.slice(0, eq);
  const value = eq < 0 ? undefined : setting.text.slice(eq + 1);
  if (isDataKey(key)) return {};
  const hazard = `git ${how} ${key} (git config that can make git run a program)`;
  if (value === undefined || how.startsWith('--config-env')) return { hazard };
  const alias = /^alias\./i.test(key);
  if (alias && !value.startsWith('!')) return { hazard };
  return { hazard, script: { script: alias ? value.slice(1) : value, via: `git ${how} ${key}` } };
}

/** Reads `git …` words: where the subcommand is and what in the line makes git run other programs. */
export function readGit(words: readonly ShellWord[]): GitReading {
  const hazards: string[] = [];
  const scripts: GitReading['scripts'] = [];
  const note = (r: ConfigFinding) => {
    if (r.hazard) hazards.push(r.hazard);
    if (r.script) scripts.push(r.script);
  };
  let i = 1;
  for (; i < words.length; i++) {
    const w = words[i];
    if (!w.literal) {
      hazards.push(`git ${w.text} (an option or subcommand known only at run time)`);
      break;
    }
    if (!w.text.startsWith('-')) break;
    const eq = w.text.startsWith('--') ? w.text.indexOf('=') : -1;
    const name = eq < 0 ? w.text : w.text.slice(0, eq);
    const attached = eq < 0 ? undefined : w.text.slice(eq + 1);
    if (name === '--exec-path' && attached !== undefined) {
      hazards.push(`git ${w.text} (it picks the programs git runs)`);
    } else if (FLAGS.has(name)) {
      continue;
    } else if (VALUED.has(name)) {
      const value = attached !== undefined ? { text: attached, literal: true } : words[++i];
      if (!value) break;
      if (name === '-c') note(configHazard(value, '-c'));
      if (name === '--config-env') note(configHazard(value, '--config-env'));
    } else {
      hazards.push(`git ${w.text} (a global option the rules do not know)`);
    }
  }
  const subcommand = words.slice(i);
  hazards.push(...subcommandHazards(subcommand, note));
  return { subcommand, hazards, scripts };
}

function subcommandHazards(words: readonly ShellWord[], note: (r: ConfigFinding) => void): string[] {
  const sub = words[0]?.text;
  if (sub === undefined) return [];
  const out: string[] = [];
  const running = RUNNING.get(sub);
  if (running) out.push(running);
  if (sub === 'bisect' && words[1]?.text === 'run') out.push('git bisect run runs a command');
  if (sub === 'submodule' && words.some((w) => w.text === 'foreach')) out.push('git submodule foreach runs a command');
  if (sub === 'config') configWrites(words).forEach((w) => note(configHazard(w, 'config')));
  for (const w of words.slice(1)) {
    if (w.text === '--') break;
    if (COMMAND_OPTIONS.test(w.text) || COMMAND_SHORT[sub]?.test(w.text)) {
      out.push(`git ${sub} ${w.text} (an option that runs a program)`);
    }
    if (/^ext::/i.test(w.text)) out.push(`git ${sub} ${w.text} (an ext:: address runs a command)`);
  }
  return out;
}

/** `git config` settings it writes, as `key=value` words (or the bare key when the value is not literal). */
function configWrites(words: readonly ShellWord[]): ShellWord[] {
  const positional: ShellWord[] = [];
  let writes = false;
  for (let i = 1; i < words.length; i++) {
    const t = words[i].text;
    if (/^(--edit|-e)$/.test(t)) return [{ text: 'core.editor', literal: true }];
    if (/^(--add|--replace-all)$/.test(t)) writes = true;
    if (/^(-f|--file|--blob|--type|--default|--comment|--value)$/.test(t)) i++;
    else if (!t.startsWith('-') || !words[i].literal) positional.push(words[i]);
  }
  const verb = positional[0]?.text;
  if (verb === 'edit') return [{ text: 'core.editor', literal: true }];
  if (verb === 'set') return settingOf(positional.slice(1));
  if (/^(get|list|unset|rename-section|remove-section)$/.test(verb ?? '')) return [];
  return writes || positional.length >= 2 ? settingOf(positional) : [];
}

function settingOf(positional: readonly ShellWord[]): ShellWord[] {
  const [key, value] = positional;
  if (!key) return [];
  if (!key.literal) return [key];
  if (value && !value.literal) return [{ text: key.text, literal: true }];
  return [{ text: value ? `${key.text}=${value.text}` : key.text, literal: true }];
}
