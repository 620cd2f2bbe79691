import { randomBytes } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DirectoryFileBytes } from './directory-file-bytes';

const id = () => randomBytes(32).toString('base64url');

describe('DirectoryFileBytes', () => {
  let dir: string;
  let store: DirectoryFileBytes;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'beacon-bytes-'));
    store = new DirectoryFileBytes(dir);
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('writes, tells, reads and streams a file, and leaves no temporary file behind', async () => {
    const [a, b] = [id(), id()];
    const bytes = randomBytes(2500);
    expect(await store.has(a)).toBe(false);
    expect(await store.read(a)).toBeUndefined();
    await store.write([
      { id: a, bytes },
      { id: b, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset + 100, 10) },
    ]);
    expect(await store.has(a)).toBe(true);
    expect((await store.read(a))!.equals(bytes)).toBe(true);
    expect((await store.read(b))!.equals(bytes.subarray(100, 110))).toBe(true);
    const slices: Buffer[] = [];
    for await (const s of store.chunks(a, bytes.length, 1000)) slices.push(s);
    expect(slices.map((s) => s.length)).toEqual([1000, 1000, 500]);
    expect(Buffer.concat(slices).equals(bytes)).toBe(true);
    const names = (await Promise.all((await readdir(dir)).map((f) => readdir(join(dir, f))))).flat();
    expect(names.sort()).toEqual([a, b].sort());
  });

  it('a stream that finds fewer bytes than the row says fails instead of ending short', async () => {
    const a = id();
    await store.write([{ id: a, bytes: randomBytes(10) }]);
    const read = async () => {
      for await (const s of store.chunks(a, 20, 1000)) void s;
    };
    await expect(read()).rejects.toThrow(/10 of its 20 bytes/);
  });

  it('refuses anything but a file id as a name (no path can be formed)', async () => {
    for (const bad of ['../../etc/passwd', 'a/b', '..', 'short', `${'x'.repeat(20)}/..`]) {
      await expect(store.write([{ id: bad, bytes: new Uint8Array(1) }])).rejects.toThrow(/not a file id/);
      await expect(store.has(bad)).rejects.toThrow(/not a file id/);
    }
    await store.remove(['../../etc/passwd']); // ignored
  });

  it('removes given files, and sweeps files (and left-over temporary files) older than an age', async () => {
    const [a, b, c] = [id(), id(), id()];
    await store.write([a, b, c].map((x) => ({ id: x, bytes: randomBytes(5) })));
    await store.remove([a]);
    expect(await store.has(a)).toBe(false);
    const old = new Date(Date.now() - 3_600_000);
    await utimes(join(dir, b.slice(0, 2), b), old, old);
    const leftOver = join(dir, c.slice(0, 2), `${c}.abc.tmp`);
    await writeFile(leftOver, 'x');
    await utimes(leftOver, old, old);
    expect(await store.sweep(60_000)).toBe(2);
    expect(await store.has(b)).toBe(false);
    expect(await store.has(c)).toBe(true);
  });
});

describe('DirectoryFileBytes: modes', () => {
  let parent: string;
  let umask: number;
  beforeEach(async () => {
    parent = await mkdtemp(join(tmpdir(), 'beacon-bytes-modes-'));
    umask = process.umask(0); // the widest umask: nothing narrows what is created
  });
  afterEach(async () => {
    process.umask(umask);
    await rm(parent, { recursive: true, force: true });
  });
  const mode = async (path: string) => (await stat(path)).mode & 0o777;

  it('creates the root and its folders 0700 and the files 0600, whatever the umask', async () => {
    const root = join(parent, 'files');
    const store = new DirectoryFileBytes(root);
    await store.narrowing;
    const [a, b] = [id(), id()];
    await store.write([{ id: a, bytes: randomBytes(10) }]);
    await store.write([{ id: b, bytes: randomBytes(10) }]);
    expect(await mode(root)).toBe(0o700);
    for (const x of [a, b]) {
      expect(await mode(join(root, x.slice(0, 2)))).toBe(0o700);
      expect(await mode(join(root, x.slice(0, 2), x))).toBe(0o600);
    }
  });

  it('narrows folders and files an earlier version left readable to others, at start-up', async () => {
    const root = join(parent, 'files');
    const a = id();
    await mkdir(join(root, a.slice(0, 2)), { recursive: true, mode: 0o755 });
    await writeFile(join(root, a.slice(0, 2), a), 'x', { mode: 0o644 });
    await chmod(root, 0o755);
    const store = new DirectoryFileBytes(root);
    expect(await store.narrowing).toBe(3);
    expect(await mode(root)).toBe(0o700);
    expect(await mode(join(root, a.slice(0, 2)))).toBe(0o700);
    expect(await mode(join(root, a.slice(0, 2), a))).toBe(0o600);
    expect((await store.read(a))!.toString()).toBe('x');
  });
});
