import { ToolFailure } from './tool-failure';
import { fileSize } from '../../common/text/file-size';

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;
const DATA_URL = /^data:[\w/.+-]*;base64,/;

export function tooLarge(label: string, size: number, max: number): ToolFailure {
  return new ToolFailure(
    'file_too_large',
    `${label} is ${size} bytes; the limit is ${max} bytes (${fileSize(max)}) per file.`,
    {
      input: label,
      bytes: size,
      limit: max,
    },
  );
}

/**
 * The size check of {@link decodeBase64} that needs only the string's length (no pass over its
 * characters, no copy): throws `file_too_large` for text that cannot decode to `max` bytes or less.
 * Cheap enough for the event loop; the decoding itself can then run in a worker.
 */
export function checkBase64Length(text: string, label: string, max: number): void {
  const prefix = text.startsWith('data:') ? (DATA_URL.exec(text)?.[0].length ?? 0) : 0;
  const length = text.length - prefix;
  if (Math.floor((length * 3) / 4) - 2 > max) throw tooLarge(label, Math.floor((length * 3) / 4), max);
}

/** Decodes base64 (standard or URL-safe, optional data: URL prefix and whitespace), size-checked. */
export function decodeBase64(text: string, label: string, max: number): Uint8Array {
  checkBase64Length(text, label, max);
  let body = text.startsWith('data:') ? text.replace(DATA_URL, '') : text;
  // Fast path (no regex over megabytes): Node skips characters that are not base64, so a decoded
  // length equal to the expected one means the text was clean base64.
  let bytes = Buffer.from(body, 'base64');
  const padding = body.endsWith('==') ? 2 : body.endsWith('=') ? 1 : 0;
  if (bytes.length !== Math.floor(((body.length - padding) * 3) / 4) || body.length % 4 === 1) {
    body = body.replace(/\s+/g, '');
    if (!BASE64.test(body) || body.length % 4 === 1) {
      throw new ToolFailure(
        'invalid_arguments',
        `${label}: base64 is not valid base64. Encode the file's bytes with standard base64.`,
        { input: label },
      );
    }
    bytes = Buffer.from(body, 'base64');
  }
  if (bytes.length > max) throw tooLarge(label, bytes.length, max);
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
