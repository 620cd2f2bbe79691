/**
 * A row's `columns` as query parameters, in that order; the `json` ones as JSON text (what a json or
 * jsonb parameter takes: the driver would send a JavaScript array as a PostgreSQL array).
 */
export function columnParams<T, K extends keyof T>(row: T, columns: readonly K[], json: readonly K[] = []): unknown[] {
  return columns.map((c) => (json.includes(c) ? JSON.stringify(row[c]) : row[c]));
}
