// Attack rows: the Bash `cwd` argument is never a new writable root, and dotfiles are not planted through it (issue
// 43, "The Bash cwd argument becomes a writable root"); and Jarvis started in the home folder, whose dotfiles a
// command could otherwise create. docs/trust-boundary.md "Attack corpus".
import { join } from 'node:path';
import { contains, FSMONITOR, plantedOutside, ran, write, type AttackCase } from '../corpusKit';

const PROFILE = 'printf "touch %s/pwned\\n" "$MARKS"';
/** The file holds this row's planted line (each row's line names its own marks folder). */
const existsAt = (path: string) => (fx: { home: string; marks: string }) => contains(join(fx.home, path), fx.marks);

export const CWD_ROWS: AttackCase[] = [
  {
    name: 'cwd = home: a login-shell profile planted in the home folder',
    bullet: 'cwd',
    cwd: (fx) => fx.home,
    attack: `${PROFILE} > .bash_profile`,
    later: 'bash -lc true',
    check: ran,
  },
  {
    name: 'cwd = home: a line appended to the existing ~/.bashrc',
    bullet: 'cwd',
    cwd: (fx) => fx.home,
    attack: `${PROFILE} >> .bashrc`,
    check: existsAt('.bashrc'),
  },
  {
    name: 'cwd = home: core.fsmonitor appended to ~/.gitconfig, then git status anywhere',
    bullet: 'cwd',
    cwd: (fx) => fx.home,
    attack: `${FSMONITOR} >> .gitconfig`,
    check: existsAt('.gitconfig'),
  },
  {
    name: 'cwd = ~/.ssh: a key appended to authorized_keys',
    bullet: 'cwd',
    setup: (fx) => write(join(fx.home, '.ssh', 'authorized_keys'), '# the user’s keys\n'),
    cwd: (fx) => join(fx.home, '.ssh'),
    attack: 'echo "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPwned $MARKS" >> authorized_keys',
    check: existsAt('.ssh/authorized_keys'),
  },
  {
    name: 'cwd = ~/.config: a desktop autostart entry',
    bullet: 'cwd',
    setup: (fx) => write(join(fx.home, '.config', 'user-dirs.locale'), 'C\n'),
    cwd: (fx) => join(fx.home, '.config'),
    attack: `mkdir -p autostart && printf "[Desktop Entry]\\nExec=touch %s/pwned\\n" "$MARKS" > autostart/up.desktop`,
    check: existsAt('.config/autostart/up.desktop'),
  },
  {
    name: "cwd = JARVIS_CODE_HOME: a hook appended to Jarvis's config.toml",
    bullet: 'cwd',
    cwd: (fx) => fx.jarvis,
    attack: `printf '[[hooks]]\\nevent = "SessionStart"\\ncommand = "touch %s/pwned"\\n' "$MARKS" >> config.toml`,
    check: (fx) => contains(join(fx.jarvis, 'config.toml'), fx.marks),
  },
  {
    name: 'cwd = a folder outside the workspace: a file planted there',
    bullet: 'cwd',
    cwd: (fx) => fx.outside,
    attack: 'echo planted > planted.txt; echo x >> notes.txt',
    check: (fx) => plantedOutside(fx) ?? contains(join(fx.outside, 'notes.txt'), 'x'),
  },
  {
    name: 'cwd = the folder above the workspace: a sibling of the workspace changed',
    bullet: 'cwd',
    cwd: (fx) => fx.root,
    attack: 'echo planted > "$OUT/planted.txt"',
    check: (fx) => plantedOutside(fx),
  },
  {
    name: 'cwd = /var/tmp (a shared folder): a file made there, then moved outside',
    bullet: 'cwd',
    cwd: () => '/var/tmp',
    attack: 'echo planted > "jarvis-corpus-$$" && mv "jarvis-corpus-$$" "$OUT/planted.txt"',
    check: (fx) => plantedOutside(fx),
  },
  // Jarvis started in the home folder: the home is the workspace, and its dotfiles are what runs later.
  {
    name: 'Jarvis started in the home folder: .bash_profile planted',
    bullet: 'cwd',
    session: 'home',
    attack: `${PROFILE} > .bash_profile`,
    later: 'bash -lc true',
    check: ran,
  },
  {
    name: 'Jarvis started in the home folder: .zshenv planted',
    bullet: 'cwd',
    session: 'home',
    attack: `${PROFILE} > .zshenv`,
    check: existsAt('.zshenv'),
  },
  {
    name: 'Jarvis started in the home folder: ~/.bashrc appended to',
    bullet: 'cwd',
    session: 'home',
    attack: `${PROFILE} >> .bashrc`,
    check: existsAt('.bashrc'),
  },
  {
    name: 'Jarvis started in the home folder: .config/autostart made',
    bullet: 'cwd',
    session: 'home',
    attack: `mkdir -p .config/autostart && printf "[Desktop Entry]\\nExec=touch %s/pwned\\n" "$MARKS" > .config/autostart/x.desktop`,
    check: existsAt('.config/autostart/x.desktop'),
  },
  {
    name: 'Jarvis started in the home folder: ~/.ssh/rc planted',
    bullet: 'cwd',
    session: 'home',
    attack: `${PROFILE} > .ssh/rc`,
    check: existsAt('.ssh/rc'),
  },
];
