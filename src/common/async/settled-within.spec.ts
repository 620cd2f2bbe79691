import { settledWithin } from './settled-within';

describe('settledWithin', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('gives the value of a promise that settles in time, and clears its timer at once', async () => {
    let resolve!: (v: string) => void;
    const waiting = settledWithin(new Promise<string>((r) => (resolve = r)), 10_000);
    expect(jest.getTimerCount()).toBe(1);
    resolve('done');
    await expect(waiting).resolves.toEqual({ value: 'done' });
    expect(jest.getTimerCount()).toBe(0);
  });

  it('gives undefined when the promise has not settled after the time given', async () => {
    const waiting = settledWithin(new Promise<never>(() => undefined), 10_000);
    jest.advanceTimersByTime(9_999);
    let outcome: unknown = 'pending';
    void waiting.then((v) => (outcome = v));
    await Promise.resolve();
    expect(outcome).toBe('pending');
    jest.advanceTimersByTime(1);
    await expect(waiting).resolves.toBeUndefined();
  });

  it('rejects with the promise and clears its timer', async () => {
    await expect(settledWithin(Promise.reject(new Error('no')), 10_000)).rejects.toThrow('no');
    expect(jest.getTimerCount()).toBe(0);
  });
});
