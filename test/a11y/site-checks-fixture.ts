import type { IncomingMessage } from 'node:http';
import { FixtureServer, html, send, startFixtureServer } from './fixture-server';

/**
 * Loopback pages for a site scan's options and checks beyond axe (test/a11y/site-checks.e2e-spec.ts):
 * - /reflow-bad: clean for axe, but breaks at 320 px only (WCAG 1.4.10): a navigation bar 350 px wide, and a
 *   toolbar of a fixed height hiding its overflow whose third button wraps out of sight;
 * - /reflow-ok: reflows; its wide table scrolls inside its own box (allowed);
 * - /trap: a focus trap (two buttons cycling Tab between them; the links after them are never reached)
 *   and a button whose focus style is removed;
 * - /bounce: the first time Tab reaches the third link, the page sends the focus back to the first one (once);
 * - /keys: an ordinary page (with a frame of three links) the keyboard walks through to its end;
 * - /width: an image without a text alternative shown below 600 px only (axe finds it at the phone viewport);
 * - a login: /login (form), POST /session (sets the session cookie when the password is right),
 *   /account and /members (different content signed in; /account sends signed-out visitors to /login).
 */
export interface SiteChecksFixture {
  server: FixtureServer;
  origin: string;
  /** The password /session accepts. */
  password: string;
  /** Login attempts seen, with the fields sent. */
  logins: Record<string, string>[];
  close(): Promise<void>;
}

const SESSION = 'fixture-session-0123456789';
const signedIn = (req: IncomingMessage): boolean => (req.headers.cookie ?? '').includes(`sid=${SESSION}`);
const page = (title: string, body: string): string =>
  html(`<header><a href="/">Home</a></header><main><h1>${title}</h1>${body}</main>`, title);

export async function startSiteChecksFixture(): Promise<SiteChecksFixture> {
  const logins: Record<string, string>[] = [];
  const password = 'correct horse battery staple';
  const routes: Parameters<typeof startFixtureServer>[0] = {};
  routes['/'] = (_q, res) => send(res, 200, page('Checks home', '<p>Home.</p>'));
  routes['/reflow-bad'] = (_q, res) =>
    send(
      res,
      200,
      page(
        'Breaks at 320',
        `<nav id="wide" aria-label="Sections" style="display:flex;gap:8px;width:350px"><a href="/a">Alpha</a><a href="/b">Beta</a><a href="/c">Gamma</a></nav>
<p style="max-width:100%">Text that wraps as it should.</p>
<div id="bar" style="display:flex;flex-wrap:wrap;gap:8px;height:40px;overflow:hidden"><button type="button" style="width:100px">Save</button><button type="button" style="width:100px">Share</button><button id="third" type="button" style="width:100px">Print</button></div>`,
      ),
    );
  routes['/reflow-ok'] = (_q, res) =>
    send(
      res,
      200,
      page(
        'Reflows',
        `<p style="max-width:100%">Text that wraps.</p><div style="overflow-x:auto;max-width:100%" tabindex="0" role="region" aria-label="Figures"><table style="width:700px"><caption>Figures</caption><tr><th scope="col">A</th><th scope="col">B</th></tr><tr><td>1</td><td>2</td></tr></table></div><p><a href="/x">A link</a></p>`,
      ),
    );
  routes['/trap'] = (_q, res) =>
    send(
      res,
      200,
      page(
        'Trap',
        `<style>#plain:focus{outline:none}</style>
<p><a href="/before">Before</a> <button id="plain" type="button">No ring</button></p>
<div id="dialog" role="group" aria-label="Stuck"><button id="t1" type="button">First</button> <button id="t2" type="button">Second</button></div>
<p><a id="after1" href="/after1">After one</a> <a id="after2" href="/after2">After two</a></p>
<script>
document.getElementById('t2').addEventListener('keydown', (e) => { if (e.key === 'Tab' && !e.shiftKey) { e.preventDefault(); document.getElementById('t1').focus(); } });
document.getElementById('t1').addEventListener('keydown', (e) => { if (e.key === 'Tab' && e.shiftKey) { e.preventDefault(); document.getElementById('t2').focus(); } });
</script>`,
      ),
    );
  routes['/keys'] = (_q, res) =>
    send(
      res,
      200,
      page(
        'Keys',
        `<p><a href="/one">One</a> <a href="/two">Two</a> <button type="button">Three</button></p><form><label for="q">Search</label> <input id="q" name="q"></form>
<iframe title="Embedded" srcdoc="<a href='/f1'>In frame 1</a> <a href='/f2'>In frame 2</a> <a href='/f3'>In frame 3</a>"></iframe>`,
      ),
    );
  routes['/bounce'] = (_q, res) =>
    send(
      res,
      200,
      page(
        'Bounce',
        `<p><a id="a" href="/a">Alpha</a> <a id="b" href="/b">Beta</a> <a id="c" href="/c">Gamma</a> <a id="d" href="/d">Delta</a></p>
<script>
let sent = false;
document.getElementById('c').addEventListener('focus', () => { if (!sent) { sent = true; document.getElementById('a').focus(); } });
</script>`,
      ),
    );
  routes['/width'] = (_q, res) =>
    send(
      res,
      200,
      `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Width</title><style>@media (min-width: 600px) { .narrow { display: none } }</style></head><body><main><h1 id="w">width</h1><img class="narrow" src="/m.png" width="10" height="10"><script>document.getElementById('w').textContent = 'width ' + innerWidth;</script></main></body></html>`,
    );
  routes['/login'] = (_q, res) =>
    send(
      res,
      200,
      page(
        'Sign in',
        `<form method="post" action="/session"><p><label for="user">E-mail</label> <input id="user" name="user"></p><p><label for="pass">Password</label> <input id="pass" name="pass" type="password"></p><p><button id="go" type="submit">Sign in</button></p></form>`,
      ),
    );
  routes['/session'] = (req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const fields = Object.fromEntries(new URLSearchParams(body));
      logins.push(fields);
      if (fields.pass === password)
        res.writeHead(303, { Location: '/account', 'Set-Cookie': `sid=${SESSION}; Path=/; HttpOnly` }).end();
      else send(res, 200, page('Sign in', '<p id="wrong">Wrong e-mail or password.</p>'));
    });
  };
  routes['/account'] = (req, res) =>
    signedIn(req)
      ? send(res, 200, page('Your account', '<p id="account">Signed in as a member.</p>'))
      : res.writeHead(302, { Location: '/login' }).end();
  routes['/members'] = (req, res) =>
    send(
      res,
      200,
      signedIn(req)
        ? page('Members', '<p id="members-only">Members only: <img src="/m.png" width="10" height="10"></p>')
        : page('Members', '<p>Please sign in.</p>'),
    );
  routes['/m.png'] = (_q, res) => send(res, 404, '');
  const server = await startFixtureServer(routes);
  return { server, origin: server.origin, password, logins, close: () => server.close() };
}
