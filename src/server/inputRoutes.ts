// What a prompt box completes (docs/server.md "Commands and skills", "Files"): the files `@` names, found as the
// terminal UI's `@` completion finds them (the Glob walk: ignore files honoured, `.git` and secrets never listed,
// inside the session's folder), and the `/name` commands and skills the session runs.
import { mentionedPaths } from '../engine/runtime/promptAttachments';
import { listPaths, matchPaths } from '../ui/completion';
import { session, type Route } from './routeKit';

export const INPUT_ROUTES: Route[] = [
  {
    method: 'GET',
    path: '/api/v1/sessions/{id}/files',
    tag: 'input',
    summary: "paths under the session's folder matching query (what @ completes to), best first",
    query: {
      query: { type: 'string', maxLength: 1000 },
      limit: { type: 'integer', minimum: 1, maximum: 50 },
    },
    handler: async (ctx) => {
      const s = await session(ctx);
      const query = ((ctx.query.query as string | undefined) ?? '').replace(/^@/, '');
      const limit = (ctx.query.limit as number | undefined) ?? 50;
      // Paths the session's prompts mentioned lately rank first, as in the terminal UI.
      const mentioned = s
        .recentPromptTexts()
        .reverse()
        .flatMap((t) => mentionedPaths(t).map((p) => p.replace(/^\.\//, '')));
      const paths = matchPaths(await listPaths(s.cwd), query, mentioned);
      return {
        items: paths.slice(0, limit).map((path) => ({ path, kind: path.endsWith('/') ? 'folder' : 'file' })),
        has_more: paths.length > limit,
      };
    },
  },
  {
    method: 'GET',
    path: '/api/v1/sessions/{id}/commands',
    tag: 'input',
    summary: 'the /name commands and skills a prompt may start with: name, description, argument_hint, source',
    handler: async (ctx) => ({ items: await (await session(ctx)).commands() }),
  },
];
