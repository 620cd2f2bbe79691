import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';

/** A response as the tests read it. */
export interface WebResponse {
  status: number;
  headers: Headers;
  text: string;
  location: string | null;
}

/**
 * A minimal browser-like HTTP client for the website over loopback: keeps cookies, does not follow
 * redirects (tests look at them), reads the CSRF token out of the last page.
 */
export class WebClient {
  readonly cookies = new Map<string, string>();
  lastPage = '';

  constructor(readonly origin: string) {}

  static of(server: Server): WebClient {
    return new WebClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  }

  private store(headers: Headers): void {
    for (const c of headers.getSetCookie()) {
      const [pair, ...attrs] = c.split(';');
      const i = pair.indexOf('=');
      const name = pair.slice(0, i).trim();
      const value = pair.slice(i + 1).trim();
      const expired = attrs.some((a) => /^\s*expires=Thu, 01 Jan 1970/i.test(a)) || value === '';
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request(
    method: string,
    path: string,
    o: { form?: Record<string, string>; headers?: Record<string, string>; body?: RequestInit['body'] } = {},
  ): Promise<WebResponse> {
    const headers: Record<string, string> = { accept: 'text/html', ...o.headers };
    if (this.cookies.size) headers.cookie = this.cookieHeader();
    let body = o.body;
    if (o.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(o.form).toString();
    }
    const res = await fetch(this.origin + path, { method, headers, body, redirect: 'manual' });
    this.store(res.headers);
    const text = await res.text();
    if ((res.headers.get('content-type') ?? '').includes('text/html')) this.lastPage = text;
    return { status: res.status, headers: res.headers, text, location: res.headers.get('location') };
  }

  get(path: string): Promise<WebResponse> {
    return this.request('GET', path);
  }

  /** The CSRF token of the last page's forms. */
  csrf(): string {
    const m = /name="_csrf" value="([^"]+)"/.exec(this.lastPage);
    if (!m) throw new Error('no CSRF token on the last page');
    return m[1];
  }

  /** Posts a form of the last page (its CSRF token added unless given). */
  post(path: string, form: Record<string, string> = {}): Promise<WebResponse> {
    return this.request('POST', path, { form: { _csrf: this.csrf(), ...form } });
  }

  /** Signs in (and replaces a one-time password when `newPassword` is given). */
  async signIn(email: string, password: string, newPassword?: string): Promise<WebResponse> {
    await this.get('/signin');
    const r = await this.post('/signin', { email, password });
    if (r.status !== 303) throw new Error(`sign-in answered ${r.status}: ${r.text.slice(0, 300)}`);
    if (r.location === '/account/password' && newPassword) {
      await this.get('/account/password');
      const c = await this.post('/account/password', {
        current_password: password,
        new_password: newPassword,
        confirm_password: newPassword,
      });
      if (c.status !== 303) throw new Error(`password change answered ${c.status}`);
      return c;
    }
    return r;
  }
}

/** Uploads through a PDF tool page's own upload form (no JavaScript), with the files already chosen on a merge page. */
export async function uploadThroughForm(
  c: WebClient,
  slug: string,
  bytes: Uint8Array,
  name: string,
  before: string[] = [],
): Promise<WebResponse> {
  await c.get(`/pdf/${slug}`);
  const form = new FormData();
  form.set('file', new Blob([Buffer.from(bytes)], { type: 'application/pdf' }), name);
  const query = new URLSearchParams({ _csrf: c.csrf() });
  for (const id of before) query.append('file_id', id);
  return c.request('POST', `/pdf/${slug}/upload?${query.toString()}`, { body: form });
}

/** The stored files' ids a PDF tool page carries in its form. */
export const fileIdsOf = (text: string): string[] =>
  [...text.matchAll(/name="file_id" value="([^"]+)"/g)].map((m) => m[1]);
