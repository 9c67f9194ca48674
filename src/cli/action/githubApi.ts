// The few GitHub REST calls the Action makes (docs/ci.md "The GitHub Action"), on the base URL the runner gives in
// GITHUB_API_URL (GitHub Enterprise; tests point it at a loopback fixture), with the workflow's token. An answer that
// is not 2xx is an error naming the call and what GitHub said; the token never appears in a message.

export class GitHubApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The most pages one listing reads (100 items each): a bound, said when reached. */
export const MAX_PAGES = 20;

export class GitHubApi {
  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
  ) {}

  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const url = `${this.baseUrl.replace(/\/+$/, '')}${path}`;
    const response = await fetch(url, {
      method,
      headers: {
        accept: 'application/vnd.github+json',
        authorization: `Bearer ${this.token}`,
        'x-github-api-version': '2022-11-28',
        'user-agent': 'jarvis-code-action',
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    if (!response.ok) {
      let said = text.slice(0, 500);
      try {
        said = (JSON.parse(text) as { message?: string }).message ?? said;
      } catch {
        // not JSON: the text itself is what GitHub said
      }
      throw new GitHubApiError(response.status, `GitHub ${method} ${path} failed: HTTP ${response.status}: ${said}`);
    }
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /** Every item of a listing, page by page; more than MAX_PAGES pages is an error rather than a silent cut. */
  async list<T>(path: string): Promise<T[]> {
    const items: T[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const sep = path.includes('?') ? '&' : '?';
      const batch = await this.request<T[]>('GET', `${path}${sep}per_page=100&page=${page}`);
      items.push(...batch);
      if (batch.length < 100) return items;
    }
    throw new Error(`GitHub GET ${path}: more than ${MAX_PAGES * 100} items; the Action reads at most that many.`);
  }
}
