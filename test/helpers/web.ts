/** A browser-like HTTP client for the server's pages: keeps cookies, follows no redirect. */
export interface WebResponse {
  status: number;
  headers: Headers;
  text: string;
  location: string | null;
}

export class WebClient {
  readonly cookies = new Map<string, string>();
  constructor(readonly base: string) {}

  async request(method: string, path: string, form?: Record<string, string>, headers: Record<string, string> = {}): Promise<WebResponse> {
    const all: Record<string, string> = { ...headers };
    if (this.cookies.size > 0) all.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    let body: string | undefined;
    if (form) {
      body = new URLSearchParams(form).toString();
      all['content-type'] = 'application/x-www-form-urlencoded';
    }
    const res = await fetch(path.startsWith('http') ? path : `${this.base}${path}`, {
      method,
      headers: all,
      redirect: 'manual',
      ...(body !== undefined ? { body } : {}),
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at);
      const value = pair!.slice(at + 1);
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return { status: res.status, headers: res.headers, text: await res.text(), location: res.headers.get('location') };
  }

  get(path: string, headers?: Record<string, string>) {
    return this.request('GET', path, undefined, headers);
  }

  post(path: string, form: Record<string, string>, headers?: Record<string, string>) {
    return this.request('POST', path, form, headers);
  }

  /** The value of the hidden `csrf` field of the page's (first) form. */
  static csrf(html: string): string {
    const found = /name="csrf" value="([^"]+)"/.exec(html);
    if (!found) throw new Error('the page has no form with a csrf field');
    return found[1]!;
  }

  /** Signs in with an API token through the sign-in form; returns the answer of the post. */
  async signIn(token: string, next?: string): Promise<WebResponse> {
    const page = await this.get(`/app/sign-in${next ? `?next=${encodeURIComponent(next)}` : ''}`);
    return this.post('/app/sign-in', { token, csrf: WebClient.csrf(page.text), next: next ?? '/app' });
  }
}
