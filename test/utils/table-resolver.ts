import type { Resolver } from '../../src/common/egress/target-guard';

/** A DNS resolver from a table, for unit tests of the egress guard: no traffic; records what was asked. */
export function tableResolver(table: Record<string, string[]>): Resolver & { asked: string[] } {
  const asked: string[] = [];
  const fn = async (host: string) => {
    asked.push(host);
    const a = table[host];
    if (!a) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return a;
  };
  return Object.assign(fn, { asked });
}
