import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderSkillBody, tokenizeArguments } from '../../src/ext/skills/skillArguments';
import { loadSkillCatalog, skillRoots } from '../../src/ext/skills/skillCatalog';
import { parseSkillFile } from '../../src/ext/skills/skillFile';
import { putFile as put, tempDir as makeTempDir } from '../helpers/files';

const tempDir = () => makeTempDir('jarvis-skills-');

describe('skill files (SPEC §9.1)', () => {
  it('a folder SKILL.md needs name and description; missing either fails to parse with the reason', async () => {
    const d = tempDir();
    const noName = await parseSkillFile(put(join(d, 'a/SKILL.md'), '---\ndescription: x\n---\nbody'), 'dir', 'user');
    expect(noName).toMatchObject({ ok: false, message: expect.stringContaining('needs name') });
    const noDesc = await parseSkillFile(put(join(d, 'b/SKILL.md'), '---\nname: b\n---\nbody'), 'dir', 'user');
    expect(noDesc).toMatchObject({ ok: false, message: expect.stringContaining('needs description') });
    const none = await parseSkillFile(put(join(d, 'c/SKILL.md'), 'just a body'), 'dir', 'user');
    expect(none).toMatchObject({ ok: false, message: expect.stringContaining('name and description') });
  });

  it('a flat file takes its name from the file and its description from the first non-empty line, cut at 240', async () => {
    const d = tempDir();
    const long = 'x'.repeat(300);
    const parsed = await parseSkillFile(put(join(d, 'Code-Style.md'), `\n\n# ${long}\nrest`), 'flat', 'user');
    expect(parsed.ok && parsed.skill.name).toBe('Code-Style');
    expect(parsed.ok && parsed.skill.description).toBe('x'.repeat(240));
  });

  it('reads type, whenToUse and disableModelInvocation in any spelling; arguments as a list or a string; ignores unknown fields', async () => {
    const d = tempDir();
    const a = await parseSkillFile(
      put(
        join(d, 'a.md'),
        '---\ntype: inline\nwhen-to-use: on commits\ndisable-model-invocation: true\narguments: [msg, scope]\nallowed-tools: Bash\n---\nb',
      ),
      'flat',
      'user',
    );
    expect(a.ok && a.skill).toMatchObject({
      type: 'inline',
      whenToUse: 'on commits',
      disableModelInvocation: true,
      arguments: ['msg', 'scope'],
    });
    const b = await parseSkillFile(
      put(join(d, 'b.md'), '---\nwhen_to_use: later\ndisable_model_invocation: false\narguments: one two\n---\nb'),
      'flat',
      'user',
    );
    expect(b.ok && b.skill).toMatchObject({
      type: 'prompt',
      whenToUse: 'later',
      disableModelInvocation: false,
      arguments: ['one', 'two'],
    });
    const c = await parseSkillFile(
      put(join(d, 'c.md'), '---\nwhenToUse: now\ndisableModelInvocation: yes\ntype: flow\n---\nb'),
      'flat',
      'user',
    );
    expect(c.ok && c.skill).toMatchObject({ type: 'flow', whenToUse: 'now', disableModelInvocation: true });
  });

  it('skips an unknown type and broken YAML with a reason', async () => {
    const d = tempDir();
    expect(await parseSkillFile(put(join(d, 'a.md'), '---\ntype: macro\n---\nb'), 'flat', 'user')).toMatchObject({
      ok: false,
      message: expect.stringContaining('unknown skill type "macro"'),
    });
    // A broken list is dropped with its line; a flat file then falls back to its file name.
    const broken = await parseSkillFile(put(join(d, 'b.md'), '---\nname: [unclosed\n---\nb'), 'flat', 'user');
    expect(broken).toMatchObject({ ok: true, skill: { name: 'b' } });
    expect(broken.ok && broken.warnings[0]).toMatch(/b\.md:2: field "name" is a list that cannot be read/);
    expect(
      await parseSkillFile(put(join(d, 'x', 'SKILL.md'), '---\nname: x\ndescription: [a\n---\nb'), 'dir', 'user'),
    ).toMatchObject({ ok: false, message: expect.stringMatching(/needs description .*field "description" is a list/) });
    expect(await parseSkillFile(put(join(d, 'c.md'), '---\nname: c\nno end'), 'flat', 'user')).toMatchObject({
      ok: false,
      message: expect.stringContaining('no closing ---'),
    });
  });
});

describe('skill placeholders', () => {
  const skill = (body: string, args: string[] = []) => ({ body, arguments: args, dir: '/skills/commit' });

  it('$0 and $1 are the words of the arguments, quotes respected, 0-based', () => {
    expect(tokenizeArguments('"fix login" patch \'a b\'')).toEqual(['fix login', 'patch', 'a b']);
    expect(renderSkillBody(skill('msg=$0 kind=$1 none=$5'), '"fix login" patch')).toBe(
      'msg=fix login kind=patch none=',
    );
  });

  it('$ARGUMENTS is the whole text, $ARGUMENTS[i] a word, $<name> a declared argument, ${JARVIS_SKILL_DIR} the folder', () => {
    const body = 'all=$ARGUMENTS second=$ARGUMENTS[1] scope=$scope unknown=$other dir=${JARVIS_SKILL_DIR}/run.sh';
    expect(renderSkillBody(skill(body, ['msg', 'scope']), 'hello world')).toBe(
      'all=hello world second=world scope=world unknown=$other dir=/skills/commit/run.sh',
    );
  });

  it('a body without argument placeholders gets the arguments appended; without arguments it stays as it is', () => {
    expect(renderSkillBody(skill('Review the code.'), 'src/a.ts')).toBe('Review the code.\n\nARGUMENTS: src/a.ts');
    expect(renderSkillBody(skill('Review the code.'), '  ')).toBe('Review the code.');
    expect(renderSkillBody(skill('Run ${JARVIS_SKILL_DIR}/x'), 'y')).toBe('Run /skills/commit/x\n\nARGUMENTS: y');
  });
});

describe('skill discovery and priority', () => {
  function layout() {
    const root = tempDir();
    const home = join(root, 'home');
    const cwd = join(root, 'repo', 'sub');
    const osHome = join(root, 'os-home');
    mkdirSync(join(root, 'repo', '.git'), { recursive: true });
    mkdirSync(cwd, { recursive: true });
    const skill = (dir: string, name: string, description: string) =>
      put(join(dir, name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\nbody of ${description}`);
    return { root, home, cwd, osHome, env: { HOME: osHome }, skill, project: join(root, 'repo') };
  }

  it('project > user > extra, in each place both folders; the first of a name (any case) wins', async () => {
    const l = layout();
    l.skill(join(l.project, '.jarvis-code/skills'), 'review', 'project-jarvis');
    l.skill(join(l.project, '.agents/skills'), 'Review', 'project-agents');
    l.skill(join(l.project, '.agents/skills'), 'lint', 'project-agents-lint');
    l.skill(join(l.home, 'skills'), 'lint', 'user-lint');
    l.skill(join(l.home, 'skills'), 'deploy', 'user-deploy');
    l.skill(join(l.osHome, '.agents/skills'), 'deploy', 'cross-deploy');
    l.skill(join(l.osHome, '.agents/skills'), 'docs', 'cross-docs');
    l.skill(join(l.root, 'extra'), 'docs', 'extra-docs');
    l.skill(join(l.root, 'extra'), 'bench', 'extra-bench');
    const catalog = await loadSkillCatalog(
      skillRoots({ home: l.home, cwd: l.cwd, env: l.env, extraDirs: [join(l.root, 'extra')] }),
    );
    const by = (n: string) => catalog.get(n)?.description;
    expect(by('REVIEW')).toBe('project-jarvis');
    expect(by('lint')).toBe('project-agents-lint');
    expect(by('deploy')).toBe('user-deploy');
    expect(by('docs')).toBe('cross-docs');
    expect(by('bench')).toBe('extra-bench');
    expect(catalog.get('review')?.source).toBe('project');
    expect(catalog.get('bench')?.source).toBe('extra');
  });

  it('in one folder <name>/SKILL.md beats <name>.md; broken files are skipped with a warning', async () => {
    const l = layout();
    const dir = join(l.home, 'skills');
    l.skill(dir, 'commit', 'folder');
    put(join(dir, 'commit.md'), '---\ndescription: flat\n---\nflat body');
    put(join(dir, 'broken', 'SKILL.md'), '---\nname: broken\n---\nno description');
    const catalog = await loadSkillCatalog(skillRoots({ home: l.home, cwd: l.cwd, env: l.env }));
    expect(catalog.get('commit')?.description).toBe('folder');
    expect(catalog.get('broken')).toBeUndefined();
    expect(catalog.warnings.join('\n')).toMatch(/skill skipped: .*broken.*needs description/);
  });

  it('--skills-dir replaces the project and user folders; extra_skill_dirs still add', async () => {
    const l = layout();
    l.skill(join(l.project, '.jarvis-code/skills'), 'review', 'project');
    l.skill(join(l.home, 'skills'), 'lint', 'user');
    l.skill(join(l.root, 'mine'), 'mine', 'given');
    l.skill(join(l.root, 'extra'), 'extra', 'extra');
    const catalog = await loadSkillCatalog(
      skillRoots({
        home: l.home,
        cwd: l.cwd,
        env: l.env,
        skillsDirs: [join(l.root, 'mine')],
        extraDirs: [join(l.root, 'extra')],
      }),
    );
    expect(catalog.all.map((s) => s.name).sort()).toEqual(['extra', 'mine']);
  });

  it('built-in skills come last; merge_all_available_skills = false reads only the first existing folder', async () => {
    const l = layout();
    l.skill(join(l.home, 'skills'), 'lint', 'user');
    l.skill(join(l.osHome, '.agents/skills'), 'docs', 'cross');
    const builtin = {
      name: 'lint',
      description: 'builtin',
      type: 'prompt' as const,
      disableModelInvocation: false,
      arguments: [],
      body: '',
      dir: '/',
      path: '/lint',
      source: 'builtin' as const,
    };
    const merged = await loadSkillCatalog(skillRoots({ home: l.home, cwd: l.cwd, env: l.env }), [
      builtin,
      { ...builtin, name: 'only-builtin' },
    ]);
    expect(merged.get('lint')?.description).toBe('user');
    expect(merged.get('only-builtin')?.source).toBe('builtin');
    const single = await loadSkillCatalog(skillRoots({ home: l.home, cwd: l.cwd, env: l.env, mergeAll: false }));
    expect(single.all.map((s) => s.name)).toEqual(['lint']);
  });

  it('modelInvocable leaves out flow skills and disableModelInvocation', async () => {
    const l = layout();
    const dir = join(l.home, 'skills');
    put(join(dir, 'a.md'), 'A');
    put(join(dir, 'b.md'), '---\ntype: flow\n---\nB');
    put(join(dir, 'c.md'), '---\ndisableModelInvocation: true\n---\nC');
    put(join(dir, 'd.md'), '---\ntype: inline\n---\nD');
    const catalog = await loadSkillCatalog(skillRoots({ home: l.home, cwd: l.cwd, env: l.env }));
    expect(catalog.modelInvocable.map((s) => s.name)).toEqual(['a', 'd']);
  });
});

describe('sub-skills (SPEC §9.1 `/<parent>.<child>`)', () => {
  it('a parent with sub-skills: true names the skills in its folders; other parents keep theirs hidden', async () => {
    const d = tempDir();
    put(join(d, 'git', 'SKILL.md'), '---\nname: git\ndescription: git work\nsub-skills: true\n---\nUse git.');
    put(join(d, 'git', 'review', 'SKILL.md'), '---\nname: review\ndescription: review a branch\n---\nReview.');
    put(join(d, 'git', 'broken', 'SKILL.md'), '---\nname: broken\n---\nno description');
    put(join(d, 'plain', 'SKILL.md'), '---\nname: plain\ndescription: p\n---\nPlain.');
    put(join(d, 'plain', 'inner', 'SKILL.md'), '---\nname: inner\ndescription: i\n---\nInner.');
    const catalog = await loadSkillCatalog([{ dir: d, source: 'user' }]);
    expect(catalog.get('git.review')).toMatchObject({ description: 'review a branch', body: 'Review.' });
    expect(catalog.get('inner')).toBeUndefined();
    expect(catalog.get('plain.inner')).toBeUndefined();
    expect(catalog.warnings).toEqual([expect.stringMatching(/skill skipped: .*broken.*needs description/)]);
  });
});
