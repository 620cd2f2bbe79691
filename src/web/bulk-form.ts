import busboy from 'busboy';
import type { Request } from 'express';
import { TrackingInputError } from '../visibility/tracking/tracking-input';

/**
 * The bulk-add form's multipart body: the textarea `lines` and the file `file`, both as text,
 * at most `maxBytes` together. Anything over is refused with the field named.
 */
export function readBulkForm(req: Request, maxBytes: number): Promise<{ lines: string; file: string }> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        defParamCharset: 'utf8',
        limits: { files: 1, fields: 4, fileSize: maxBytes + 1, fieldSize: maxBytes + 1, parts: 6 },
      });
    } catch {
      return reject(new TrackingInputError('Send the prompts with the form on this page.', 'lines'));
    }
    const out = { lines: '', file: '' };
    let size = 0;
    let failed = false;
    const fail = (e: TrackingInputError) => {
      if (failed) return;
      failed = true;
      req.unpipe(parser);
      req.resume();
      reject(e);
    };
    const tooLarge = (field: string) =>
      fail(
        new TrackingInputError(
          `The prompts are larger than ${maxBytes / 1024 / 1024} MB: add them in several parts.`,
          field,
        ),
      );
    parser.on('field', (name, value, info) => {
      if (name !== 'lines') return;
      size += Buffer.byteLength(value);
      if (info.valueTruncated || size > maxBytes) return tooLarge('lines');
      out.lines = value;
    });
    parser.on('file', (name, stream) => {
      if (name !== 'file') return stream.resume();
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => {
        size += c.length;
        if (size > maxBytes) return tooLarge('file');
        chunks.push(c);
      });
      stream.on('end', () => {
        out.file = Buffer.concat(chunks).toString('utf8');
      });
    });
    parser.on('error', () => fail(new TrackingInputError('The form could not be read: send it again.', 'lines')));
    parser.on('close', () => {
      if (!failed) resolve(out);
    });
    req.pipe(parser);
  });
}
