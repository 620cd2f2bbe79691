/**
 * `p`'s value as `{ value }`, or undefined when it has not settled after `ms` (a rejection of `p`
 * within `ms` rejects). The timer is cleared as soon as `p` settles, so a wait that ended early never
 * keeps a closing process alive for the rest of `ms` (as `Promise.race([p, sleep(ms)])` does).
 */
export async function settledWithin<T>(p: Promise<T>, ms: number): Promise<{ value: T } | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([p.then((value) => ({ value })), late]);
  } finally {
    clearTimeout(timer);
  }
}
