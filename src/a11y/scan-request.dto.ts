import { IsBoolean, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

/** Body of POST /api/scan. */
export class ScanRequestDto {
  /** Address of the page to scan (http or https). */
  @IsString()
  @IsNotEmpty()
  @MaxLength(2048)
  url!: string;

  /** true: up to 5 same-origin pages. Default false. */
  @IsOptional()
  @IsBoolean()
  crawl?: boolean;
}
