import type { PipeTransform } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { MENTION_STATUSES, MentionStatus } from '../derive/classify';
import { SOURCE_CATEGORIES, SourceCategory } from '../derive/domains';
import { DomainError } from '../../common/errors/domain-error';

const toInt = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^\d{1,6}$/.test(value) ? Number(value) : value;

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 500;
const BOOL = ['true', 'false'];

/**
 * Endpoints without parameters: any query parameter is refused with the 400 the global
 * ValidationPipe gives an unknown field (the first one named). A pipe of its own because the
 * summary is the most polled route: an empty query costs one look at its keys, not a
 * class-transformer and class-validator pass (`@Query(NoQuery) _q: Record<string, never>`,
 * which the global pipe leaves alone).
 */
export class NoQuery implements PipeTransform<Record<string, unknown>, Record<string, never>> {
  transform(query: Record<string, unknown>): Record<string, never> {
    const [field] = Object.keys(query);
    if (field !== undefined) throw DomainError.badRequest(`Invalid ${field}: unknown field ${field}.`, field);
    return {};
  }
}

export class PageQuery {
  /** Page size, 1..500 (default 50). */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'limit must be an integer from 1 to 500' })
  @Min(1)
  @Max(MAX_LIMIT)
  limit: number = DEFAULT_LIMIT;

  /** `next_cursor` of the previous page. */
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  @Matches(/^[A-Za-z0-9_-]+$/, { message: 'cursor is not a cursor of this API' })
  cursor?: string;
}

const PLATFORM = /^[a-z0-9][a-z0-9_.-]{0,39}$/;

/** A list of one scan: `scan_id` picks it (an id of GET /history); the latest scan by default (issue #22). */
export class ScanListQuery extends PageQuery {
  @IsOptional()
  @Matches(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/, {
    message: 'scan_id must be the scan_id of a scan in GET /api/v1/history',
  })
  scan_id?: string;
}

export class PromptsQuery extends ScanListQuery {
  @IsOptional()
  @IsString()
  @MaxLength(64)
  tag?: string;

  @IsOptional()
  @IsIn(BOOL)
  enabled?: 'true' | 'false';

  @IsOptional()
  @IsString()
  @MaxLength(64)
  intent?: string;

  @IsOptional()
  @Matches(/^[A-Za-z]{2}$/, { message: 'country must be a two-letter country code' })
  country?: string;
}

export class AnswersQuery extends ScanListQuery {
  @IsOptional()
  @Matches(PLATFORM, { message: 'platform must be a platform identifier such as chatgpt' })
  platform?: string;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  tag?: string;

  /** Brand mentioned (true) or not (false). */
  @IsOptional()
  @IsIn(BOOL)
  mentioned?: 'true' | 'false';

  /** Brand status: mentioned, absent (the answer says it does not know the brand) or not_named. */
  @IsOptional()
  @IsIn(MENTION_STATUSES)
  brand_status?: MentionStatus;

  /** Answers mentioning this competitor (name, case-insensitive). */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  competitor?: string;

  @IsOptional()
  @IsString()
  @MaxLength(128)
  prompt_id?: string;

  /** Answers citing this URL (as GET /urls and /gaps list it, normalised). Addition of issue #22. */
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  cited_url?: string;

  /** Answers citing a URL of this registrable domain (as GET /sources lists it) or of its subdomains. Addition of issue #22. */
  @IsOptional()
  @IsString()
  @MaxLength(253)
  cited_domain?: string;

  /** The answers behind this citation gap (a url of GET /gaps): citing it, naming a competitor and not the brand. Addition of issue #22. */
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  gap_url?: string;
}

export class SourcesQuery extends ScanListQuery {
  @IsOptional()
  @IsIn(SOURCE_CATEGORIES)
  category?: SourceCategory;

  @IsOptional()
  @Matches(PLATFORM, { message: 'platform must be a platform identifier such as chatgpt' })
  platform?: string;
}

export class UrlsQuery extends SourcesQuery {
  /** Registrable domain, e.g. g2.com. */
  @IsOptional()
  @IsString()
  @MaxLength(253)
  domain?: string;
}

export class GapsQuery extends SourcesQuery {
  @IsOptional()
  @IsString()
  @MaxLength(200)
  competitor?: string;
}

export class HistoryQuery extends PageQuery {}
