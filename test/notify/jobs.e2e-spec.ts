import { CoreModule } from '../../src/common/core.module';
import { JobQueues } from '../../src/common/jobs/job-queues';
import { createTestApp } from '../utils/test-app';

/** JobQueues as every module gets it: from CoreModule, BullMQ with REDIS_URL, closed with the app. */
describe('JobQueues in the application', () => {
  it('is provided by CoreModule, runs jobs, and is closed with the app', async () => {
    const t = await createTestApp({ module: (o) => CoreModule.forRoot(o) });
    const jobs = t.app.get(JobQueues);
    expect(jobs.kind).toBe(process.env.REDIS_URL ? 'bullmq' : 'in-process');
    const got: unknown[] = [];
    jobs.register<{ hello: string }>('wiring', async (data) => {
      got.push(data);
    });
    await jobs.add('wiring', { hello: 'world' });
    const end = Date.now() + 10_000;
    while (got.length === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
    expect(got).toEqual([{ hello: 'world' }]);
    await t.close();
    await expect(jobs.add('wiring', {})).rejects.toThrow(/closed/);
  });
});
