import type { ScanLockRelease, ScanLockStore } from './scan-lock.store';

/** The scan lock in this instance's memory: the clients with a scan in progress here (no expiry needed). */
export class MemoryScanLockStore implements ScanLockStore {
  private readonly running = new Set<string>();

  acquire(client: string): Promise<ScanLockRelease | undefined> {
    if (this.running.has(client)) return Promise.resolve(undefined);
    this.running.add(client);
    return Promise.resolve(async () => void this.running.delete(client));
  }
}
