/**
 * A tool result's field as a person reads it: page lists as ranges ("1-200", "1-3, 7"), a list of
 * one value repeated as that value with its count ("90 for all 200"), lists and records spelled out
 * with spaces (they wrap on a phone), never raw JSON.
 */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (typeof value !== 'object') return '';
  if (Array.isArray(value)) return describeList(value);
  return Object.entries(value)
    .map(([k, v]) => `${k.replace(/_/g, ' ')}: ${describeValue(v)}`)
    .join('; ');
}

function describeList(list: unknown[]): string {
  if (!list.length) return 'none';
  if (list.every((v) => Number.isInteger(v))) {
    const numbers = list as number[];
    if (numbers.length > 2 && numbers.every((n) => n === numbers[0])) return `${numbers[0]} for all ${numbers.length}`;
    if (numbers.every((n, i) => i === 0 || n > numbers[i - 1])) return ranges(numbers);
    return numbers.join(', ');
  }
  return list.map((v) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? `(${describeValue(v)})` : describeValue(v))).join(', ');
}

/** Increasing integers as ranges: [1, 2, 3, 7, 9, 10] -> "1-3, 7, 9-10". */
function ranges(numbers: number[]): string {
  const out: string[] = [];
  let start = numbers[0];
  for (let i = 1; i <= numbers.length; i++) {
    if (i < numbers.length && numbers[i] === numbers[i - 1] + 1) continue;
    const end = numbers[i - 1];
    out.push(end === start ? String(start) : `${start}-${end}`);
    start = numbers[i];
  }
  return out.join(', ');
}
