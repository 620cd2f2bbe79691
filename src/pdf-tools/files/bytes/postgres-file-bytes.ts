import type { DataSource } from 'typeorm';
import type { BytesToWrite, FileBytes } from './file-bytes';

/**
 * Bytes in `pdf_files.content` (bytea, EXTERNAL storage: out of line, never compressed), shared by
 * every instance on the database and kept with the row: deleting an expired row deletes its bytes.
 */
export class PostgresFileBytes implements FileBytes {
  readonly where = 'PostgreSQL';

  constructor(private readonly db: DataSource) {}

  /** One statement for the batch, so one connection however many files (a split writes 20 at once). */
  async write(files: BytesToWrite[]): Promise<void> {
    const values = files.map((_, i) => `($${2 * i + 1}::varchar, $${2 * i + 2}::bytea)`).join(', ');
    await this.db.query(
      `UPDATE pdf_files AS f SET content = v.content FROM (VALUES ${values}) AS v(id, content) WHERE f.id = v.id`,
      files.flatMap((f) => [f.id, Buffer.from(f.bytes.buffer, f.bytes.byteOffset, f.bytes.byteLength)]),
    );
  }

  async has(id: string): Promise<boolean> {
    const rows: { stored: boolean }[] = await this.db.query(
      'SELECT content IS NOT NULL AS stored FROM pdf_files WHERE id = $1',
      [id],
    );
    return rows[0]?.stored === true;
  }

  async read(id: string): Promise<Buffer | undefined> {
    const rows: { content: Buffer | null }[] = await this.db.query('SELECT content FROM pdf_files WHERE id = $1', [id]);
    return rows[0]?.content ?? undefined;
  }

  async *chunks(id: string, size: number, chunk: number): AsyncGenerator<Buffer> {
    for (let offset = 0; offset < size; offset += chunk) {
      const rows: { chunk: Buffer | null }[] = await this.db.query(
        'SELECT substring(content FROM $2 FOR $3) AS chunk FROM pdf_files WHERE id = $1',
        [id, offset + 1, chunk],
      );
      if (!rows[0]?.chunk) throw new Error(`file ${id.slice(0, 6)}… disappeared while streaming`);
      yield rows[0].chunk;
    }
  }

  /** The bytes go with their rows. */
  async remove(): Promise<void> {}

  async sweep(): Promise<number> {
    return 0;
  }
}
