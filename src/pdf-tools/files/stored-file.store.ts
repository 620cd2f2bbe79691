import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThan, Repository } from 'typeorm';
import { StoredFile } from './stored-file.entity';

/** The row of a new stored file (its bytes are written separately, by FileBytes). */
export type NewFileRow = Pick<StoredFile, 'id' | 'filename' | 'size' | 'pages' | 'sha256' | 'createdAt' | 'expiresAt'>;

/**
 * Every query of the rows of stored files (pdf_files) without their bytes: the bytes column is
 * FileBytes' (PostgresFileBytes writes and reads it; here it is only inserted empty).
 */
@Injectable()
export class StoredFileStore {
  constructor(@InjectRepository(StoredFile) private readonly files: Repository<StoredFile>) {}

  /** Inserts the rows in one statement, bytes not written yet; returns them as entities. */
  async insert(rows: NewFileRow[]): Promise<StoredFile[]> {
    const files = rows.map((row) => this.files.create(row));
    await this.files.insert(files.map((file) => ({ ...file, content: null })));
    return files;
  }

  /** The row (without its bytes), expired or not. */
  async find(id: string): Promise<StoredFile | null> {
    return this.files.findOne({ where: { id } });
  }

  async exists(id: string): Promise<boolean> {
    return this.files.exists({ where: { id } });
  }

  async delete(ids: string[]): Promise<void> {
    await this.files.delete(ids);
  }

  /** The ids of the files expired before `now`. */
  async expiredIds(now: Date): Promise<string[]> {
    return (await this.files.find({ select: { id: true }, where: { expiresAt: LessThan(now) } })).map((f) => f.id);
  }
}
