/** The size limits a tool opens its input files under (bytes per file, pages per file). */
export interface Limits {
  maxBytes: number;
  maxPages: number;
}
