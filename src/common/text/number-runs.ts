/**
 * Increasing whole numbers written as runs of consecutive ones: [1, 2, 3, 7, 9, 10] -> "1-3, 7, 9-10"
 * (`to` between the ends of a run: "-" for pages, ".." for list indexes).
 */
export function numberRuns(numbers: readonly number[], to = '-'): string {
  const out: string[] = [];
  for (let i = 0; i < numbers.length;) {
    let j = i;
    while (j + 1 < numbers.length && numbers[j + 1] === numbers[j] + 1) j++;
    out.push(j > i ? `${numbers[i]}${to}${numbers[j]}` : String(numbers[i]));
    i = j + 1;
  }
  return out.join(', ');
}
