// A loopback fake of the few GitHub REST endpoints the Action uses (docs/ci.md "The GitHub Action"): pull requests,
// their reviews and review comments, issue comments. It keeps what was posted, records every request, checks the
// token, and — like GitHub — refuses a review comment on a line that is not in the pull request's diff (422).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeReview {
  id: number;
  body: string;
  commit_id: string;
  html_url: string;
  user: { login: string; type: 'Bot' | 'User' };
}
export interface FakeComment {
  id: number;
  review_id: number;
  path: string;
  line: number;
  start_line?: number;
  body: string;
}

export interface FakeGitHub {
  url: string;
  requests: Array<{ method: string; path: string; body: unknown; authorization?: string }>;
  reviews: FakeReview[];
  comments: FakeComment[];
  issueComments: Array<{ issue: number; body: string }>;
  pulls: Map<number, unknown>;
  close(): Promise<void>;
}

/** `diffLines`: per path, the new-side lines a review comment may be on. */
export async function startFakeGitHub(opts: {
  token: string;
  diffLines: Record<string, Set<number>>;
}): Promise<FakeGitHub> {
  let nextId = 100;
  const state: Omit<FakeGitHub, 'url' | 'close'> = {
    requests: [],
    reviews: [],
    comments: [],
    issueComments: [],
    pulls: new Map(),
  };
  const send = (res: ServerResponse, status: number, body?: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(body === undefined ? '' : JSON.stringify(body));
  };
  const handle = (req: IncomingMessage, res: ServerResponse, raw: string) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const body = raw ? (JSON.parse(raw) as Record<string, any>) : undefined; // eslint-disable-line @typescript-eslint/no-explicit-any
    state.requests.push({
      method: req.method ?? '',
      path: url.pathname,
      body,
      authorization: req.headers.authorization,
    });
    if (req.headers.authorization !== `Bearer ${opts.token}`) return send(res, 401, { message: 'Bad credentials' });
    const page = Number(url.searchParams.get('page') ?? '1');
    const paged = <T>(items: T[]) => items.slice((page - 1) * 100, page * 100);
    let m: RegExpExecArray | null;
    const path = url.pathname;
    const key = `${req.method} ${path}`;
    if ((m = /^GET \/repos\/[^/]+\/[^/]+\/pulls\/(\d+)$/.exec(key))) {
      const pull = state.pulls.get(Number(m[1]));
      return pull ? send(res, 200, pull) : send(res, 404, { message: 'Not Found' });
    }
    if ((m = /^GET \/repos\/[^/]+\/[^/]+\/pulls\/\d+\/reviews$/.exec(key))) return send(res, 200, paged(state.reviews));
    if ((m = /^POST \/repos\/[^/]+\/[^/]+\/pulls\/\d+\/reviews$/.exec(key))) {
      for (const c of body!.comments ?? []) {
        const lines = opts.diffLines[c.path as string];
        const all = [c.line, ...(c.start_line ? [c.start_line] : [])] as number[];
        if (!lines || all.some((l) => !lines.has(l)) || c.side !== 'RIGHT')
          return send(res, 422, { message: 'Unprocessable Entity', errors: ['Line could not be resolved'] });
      }
      // The workflow's token posts as the Actions bot; a review of a person's is added by a test directly.
      const review: FakeReview = {
        id: nextId++,
        body: body!.body as string,
        commit_id: body!.commit_id as string,
        html_url: '',
        user: { login: 'github-actions[bot]', type: 'Bot' },
      };
      review.html_url = `https://github.example/acme/numbers/pull/7#pullrequestreview-${review.id}`;
      state.reviews.push(review);
      for (const c of body!.comments ?? [])
        state.comments.push({
          id: nextId++,
          review_id: review.id,
          path: c.path,
          line: c.line,
          start_line: c.start_line,
          body: c.body,
        });
      return send(res, 200, review);
    }
    if ((m = /^PUT \/repos\/[^/]+\/[^/]+\/pulls\/\d+\/reviews\/(\d+)$/.exec(key))) {
      const review = state.reviews.find((r) => r.id === Number(m![1]));
      if (!review) return send(res, 404, { message: 'Not Found' });
      // Like GitHub: the token may edit only its own reviews.
      if (review.user.type !== 'Bot') return send(res, 403, { message: 'Resource not accessible by integration' });
      review.body = body!.body as string;
      return send(res, 200, review);
    }
    if ((m = /^GET \/repos\/[^/]+\/[^/]+\/pulls\/\d+\/reviews\/(\d+)\/comments$/.exec(key)))
      return send(res, 200, paged(state.comments.filter((c) => c.review_id === Number(m![1]))));
    if ((m = /^DELETE \/repos\/[^/]+\/[^/]+\/pulls\/comments\/(\d+)$/.exec(key))) {
      const i = state.comments.findIndex((c) => c.id === Number(m![1]));
      if (i < 0) return send(res, 404, { message: 'Not Found' });
      const owner = state.reviews.find((r) => r.id === state.comments[i].review_id);
      if (owner?.user.type !== 'Bot') return send(res, 403, { message: 'Resource not accessible by integration' });
      state.comments.splice(i, 1);
      return send(res, 204);
    }
    if ((m = /^POST \/repos\/[^/]+\/[^/]+\/issues\/(\d+)\/comments$/.exec(key))) {
      state.issueComments.push({ issue: Number(m[1]), body: body!.body as string });
      return send(res, 201, { id: nextId++ });
    }
    return send(res, 404, { message: `the fake has no ${key}` });
  };
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => handle(req, res, raw));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    ...state,
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
