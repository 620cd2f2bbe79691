import type { Response } from 'superagent';

type Done = (err: Error | null, body: unknown) => void;

/** supertest `.buffer(true).parse(bytes)`: the whole body as one Buffer (PDFs, PNGs). */
export function bytes(res: Response, done: Done): void {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => done(null, Buffer.concat(chunks)));
}

/** supertest `.buffer(true).parse(text)`: the whole body as UTF-8 text (SVG, XML, SARIF). */
export function text(res: Response, done: Done): void {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => done(null, Buffer.concat(chunks).toString('utf8')));
}
