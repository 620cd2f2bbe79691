/**
 * Over 300 lines: the address checks, the redirects followed by hand and the capped, decoded stream are one download's
 * control flow, each hop checked before a byte is read from it; splitting them would put the guard and the request it
 * guards in different files.
 */
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { EgressGuard, EgressRefusal, PinnedAddress } from '../../common/egress/egress-guard';
import { pinnedRequest } from '../../common/egress/pinned-request';
import { tooLarge } from '../core/base64';
import { findPdfHeader, HEADER_SEARCH_BYTES } from '../core/pdf-open';
import { ToolFailure } from '../core/tool-failure';

export interface UrlFetchLimits {
  /** Most bytes of the PDF (decoded): the download is cut off past it. */
  maxBytes: number;
  /** Connecting (TCP, and TLS for https) to each hop's server. */
  connectTimeoutMs: number;
  /** The whole download: every hop, every byte. */
  totalTimeoutMs: number;
  /** Most redirects followed. */
  maxRedirects: number;
}

/** A `url` input after the checks that need no byte from its server: parsed, http(s), its host's address allowed and pinned. */
export interface CheckedUrl {
  url: URL;
  pinned: PinnedAddress;
}

export interface FetchedPdf {
  bytes: Uint8Array;
  /** From Content-Disposition or the last path segment; undefined when neither names a file. */
  filename?: string;
  /** The address the bytes came from (after redirects). */
  finalUrl: string;
}

/** Called as bytes arrive: received so far, and the announced length when the server gave one. */
export type FetchProgress = (received: number, total: number | undefined) => void;

const MAX_URL_LENGTH = 2048;
/** What works instead of a url the service does not fetch. */
const UPLOAD_HINT =
  'To send a file from your own machine or network, upload it with POST /files (raw PDF body) and pass the file_id it answers.';
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const USER_AGENT = 'BeaconPdfTools/1.0 (url input of an MCP tool call)';

type Hop = { redirect: URL } | { bytes: Buffer; filename?: string };

/**
 * Downloads the PDF of a tool's `url` input, guarded against SSRF with the service's one address
 * policy ({@link EgressGuard}, shared with the scans): every hop's host is resolved by the guard,
 * refused unless all its addresses are allowed, and the connection goes to that exact address
 * (no second lookup, so DNS rebinding has nothing to play with). Redirects are followed by hand,
 * each re-checked the same way before a byte is asked from it; loops and more than `maxRedirects`
 * are refused. The body is streamed and cut off (connection destroyed) past `maxBytes` or when its
 * first bytes have no `%PDF-` header; connect and total deadlines apply. Nothing is stored here:
 * the caller gets the bytes or a {@link ToolFailure} naming the input.
 */
export class UrlFetcher {
  constructor(
    private readonly guard: EgressGuard,
    private readonly limits: UrlFetchLimits,
  ) {}

  /**
   * Parses `raw` and checks its first hop (scheme, no credentials, host allowed): no byte is asked
   * from the server. Refusals: `url_not_allowed`; a malformed URL: `invalid_arguments`; a host that
   * does not resolve: `download_failed`.
   */
  async check(raw: string, label: string): Promise<CheckedUrl> {
    if (raw.length > MAX_URL_LENGTH)
      throw new ToolFailure('invalid_arguments', `${label}: url is longer than ${MAX_URL_LENGTH} characters.`, {
        input: label,
      });
    let url: URL;
    try {
      url = new URL(raw.trim());
    } catch {
      throw new ToolFailure(
        'invalid_arguments',
        `${label}: url is not an absolute URL (e.g. https://example.com/file.pdf).`,
        { input: label },
      );
    }
    return { url, pinned: await this.allowed(url, label, false) };
  }

  /** Downloads a checked URL (call after the quota). */
  async fetch(checked: CheckedUrl, label: string, onProgress?: FetchProgress): Promise<FetchedPdf> {
    const deadline = Date.now() + this.limits.totalTimeoutMs;
    const seen = new Set<string>();
    let { url, pinned } = checked;
    for (let redirects = 0; ; redirects++) {
      seen.add(url.href);
      const hop = await this.hop(url, pinned, deadline, label, onProgress);
      if ('bytes' in hop) {
        return {
          bytes: new Uint8Array(hop.bytes.buffer, hop.bytes.byteOffset, hop.bytes.byteLength),
          filename: hop.filename,
          finalUrl: url.href,
        };
      }
      if (seen.has(hop.redirect.href)) {
        throw new ToolFailure(
          'url_not_allowed',
          `${label}: the url redirects in a loop (back to ${shortUrl(hop.redirect)}).`,
          { input: label, reason: 'redirect_loop' },
        );
      }
      if (redirects >= this.limits.maxRedirects) {
        throw new ToolFailure(
          'url_not_allowed',
          `${label}: the url redirects more than ${this.limits.maxRedirects} times.`,
          {
            input: label,
            reason: 'too_many_redirects',
            limit: this.limits.maxRedirects,
          },
        );
      }
      url = hop.redirect;
      pinned = await this.allowed(url, label, true);
    }
  }

  /** The pinned address of `url`'s host, or the refusal (scheme, credentials, address policy, DNS). */
  private async allowed(url: URL, label: string, redirected: boolean): Promise<PinnedAddress> {
    const where = redirected ? `the url redirects to ${shortUrl(url)}, which` : 'the url';
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new ToolFailure(
        'url_not_allowed',
        `${label}: ${where} is not http or https (${url.protocol}). ${UPLOAD_HINT}`,
        { input: label, reason: 'scheme' },
      );
    }
    if (url.username || url.password) {
      throw new ToolFailure('url_not_allowed', `${label}: ${where} carries credentials; those are not sent.`, {
        input: label,
        reason: 'credentials',
      });
    }
    let timer: NodeJS.Timeout | undefined;
    // A name server that does not answer counts against the connect deadline too.
    const dnsDeadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new ToolFailure(
              'download_failed',
              `${label}: the host ${url.hostname} did not resolve within ${this.limits.connectTimeoutMs} ms.`,
              { input: label, reason: 'dns' },
            ),
          ),
        this.limits.connectTimeoutMs,
      );
    });
    try {
      return await Promise.race([this.guard.resolveAllowed(url.hostname), dnsDeadline]);
    } catch (e) {
      if (!(e instanceof EgressRefusal)) throw e;
      if (e.unresolvable) {
        throw new ToolFailure(
          'download_failed',
          `${label}: the host ${url.hostname} could not be resolved (${e.publicReason}).`,
          { input: label, reason: 'dns' },
        );
      }
      throw new ToolFailure(
        'url_not_allowed',
        `${label}: ${where} is not fetched: ${e.plainReason ?? e.publicReason}, and this service only fetches public internet addresses. ${UPLOAD_HINT}`,
        {
          input: label,
          reason: 'address',
        },
      );
    } finally {
      clearTimeout(timer);
    }
  }

  /** One request: a redirect to follow, or the whole (checked) body. */
  private hop(
    url: URL,
    pinned: PinnedAddress,
    deadline: number,
    label: string,
    onProgress?: FetchProgress,
  ): Promise<Hop> {
    const max = this.limits.maxBytes;
    return new Promise<Hop>((resolve, reject) => {
      const timedOut = () =>
        new ToolFailure(
          'download_failed',
          `${label}: downloading ${shortUrl(url)} failed: not complete after ${this.limits.totalTimeoutMs} ms.`,
          { input: label, reason: 'timeout' },
        );
      const left = deadline - Date.now();
      if (left <= 0) return reject(timedOut());
      // The connection goes to the address the guard checked (no second DNS lookup).
      const req = pinnedRequest(url, pinned, {
        method: 'GET',
        headers: {
          'user-agent': USER_AGENT,
          accept: 'application/pdf, */*;q=0.5',
          'accept-encoding': 'gzip, deflate, br',
        },
      });
      let settled = false;
      const timers: NodeJS.Timeout[] = [];
      const done = (error: ToolFailure | undefined, hop?: Hop) => {
        if (settled) return;
        settled = true;
        timers.forEach(clearTimeout);
        // Whatever is still coming is not read: the connection is closed.
        req.destroy();
        if (error) reject(error);
        else resolve(hop!);
      };
      const failed = (why: string, reason: string) =>
        done(
          new ToolFailure('download_failed', `${label}: downloading ${shortUrl(url)} failed: ${why}.`, {
            input: label,
            reason,
          }),
        );
      timers.push(setTimeout(() => done(timedOut()), left));
      req.on('socket', (socket) => {
        if (!socket.connecting) return;
        const t = setTimeout(
          () => failed(`no connection within ${this.limits.connectTimeoutMs} ms`, 'connect_timeout'),
          this.limits.connectTimeoutMs,
        );
        timers.push(t);
        socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => clearTimeout(t));
      });
      req.on('error', (e: NodeJS.ErrnoException) => failed(e.code ?? e.message, 'connection'));
      req.on('response', (res: IncomingMessage) => {
        const status = res.statusCode ?? 0;
        if (REDIRECTS.has(status)) {
          const location = res.headers.location;
          if (!location) return failed(`HTTP ${status} without a Location`, 'http_status');
          try {
            return done(undefined, { redirect: new URL(location, url) });
          } catch {
            return failed(`HTTP ${status} to a malformed Location`, 'http_status');
          }
        }
        if (status < 200 || status > 299) return failed(`the server answered HTTP ${status}`, 'http_status');
        const encoding = String(res.headers['content-encoding'] ?? 'identity')
          .toLowerCase()
          .trim();
        const declared = Number(res.headers['content-length']);
        // The announced length is of the encoded body: only an unencoded one is final.
        if (encoding === 'identity' && declared > max) return done(tooLarge(label, declared, max));
        let body: Readable = res;
        if (encoding === 'gzip' || encoding === 'x-gzip') body = res.pipe(createGunzip());
        else if (encoding === 'deflate') body = res.pipe(createInflate());
        else if (encoding === 'br') body = res.pipe(createBrotliDecompress());
        else if (encoding !== 'identity') return failed(`unsupported Content-Encoding ${encoding}`, 'encoding');
        const contentType = String(res.headers['content-type'] ?? '')
          .split(';')[0]
          .trim()
          .toLowerCase();
        const chunks: Buffer[] = [];
        let size = 0;
        let headerSeen = false;
        const notPdf = () =>
          done(
            new ToolFailure(
              'not_a_pdf',
              `${label}: ${shortUrl(url)} is not a PDF (no %PDF- header${contentType ? `; the server says ${contentType}` : ''}). Give the address of the PDF file itself.`,
              { input: label, content_type: contentType || undefined },
            ),
          );
        const checkHeader = (final: boolean): boolean => {
          if (headerSeen) return true;
          const head = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size);
          if (findPdfHeader(head) >= 0) return (headerSeen = true);
          if (final || size >= HEADER_SEARCH_BYTES + 5) notPdf();
          return false;
        };
        body.on('data', (chunk: Buffer) => {
          if (settled) return;
          size += chunk.length;
          if (size > max) return done(tooLarge(label, size, max));
          chunks.push(chunk);
          if (!checkHeader(false) && settled) return;
          onProgress?.(size, encoding === 'identity' && declared > 0 ? declared : undefined);
        });
        body.on('end', () => {
          if (settled) return;
          if (size === 0)
            return done(
              new ToolFailure('not_a_pdf', `${label}: ${shortUrl(url)} answered an empty body (0 bytes).`, {
                input: label,
              }),
            );
          if (!checkHeader(true)) return;
          done(undefined, { bytes: Buffer.concat(chunks, size), filename: filenameOf(res, url) });
        });
        body.on('error', (e: Error) =>
          failed(encoding === 'identity' ? e.message : `the ${encoding} body is damaged`, 'connection'),
        );
        res.on('aborted', () => failed('the server closed the connection mid-way', 'connection'));
      });
      req.end();
    });
  }
}

/** The URL for messages: no query (it may carry tokens), at most 120 characters. */
export function shortUrl(url: URL): string {
  const s = `${url.protocol}//${url.host}${url.pathname}`;
  return s.length > 120 ? `${s.slice(0, 117)}...` : s;
}

/** The file name from Content-Disposition, else from the last path segment; undefined if neither has one. */
function filenameOf(res: IncomingMessage, url: URL): string | undefined {
  const cd = String(res.headers['content-disposition'] ?? '');
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(cd);
  const plain = /filename\s*=\s*"?([^";]+)"?/.exec(cd);
  let name = star ? safeDecode(star[1]) : plain?.[1];
  if (!name) {
    const last = url.pathname.split('/').pop() ?? '';
    name = safeDecode(last) || undefined;
  }
  return name?.trim() || undefined;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
