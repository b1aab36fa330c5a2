import { mkdtempSync } from 'fs';
import { startSandbox } from '../sandbox';
import { buildAndPack } from '../harness/real-n8n/community-package';
import { QueueCluster } from '../harness/queue/cluster';
import { startRunSink } from '../harness/queue/sink';
import { triggerWorkflow, triggerWebhookPath } from '../harness/queue/workflows';
import { httpCall } from '../harness/real-n8n/http';
(async () => {
  const work = mkdtempSync('/tmp/lcq-smoke-');
  const tarball = process.env.TARBALL ?? await buildAndPack(work);
  console.log('tarball', tarball);
  const sandbox = await startSandbox({ port: 0, leads: 50, seed: 1 });
  const sink = await startRunSink();
  const wf = triggerWorkflow({ id: 'LcQueueSmoke0001', webhookId: '11111111-2222-4333-8444-555555555555', sinkUrl: sink.url });
  const cluster = await QueueCluster.start({ tarball, workDir: work, service: { baseUrl: sandbox.baseUrl, apiKey: sandbox.keys.full }, workflows: [wf], workerConcurrency: 2 });
  try {
    await cluster.activate(wf.id);
    console.log('subs', sandbox.control.webhooks().map((w) => w.url));
    for (let i = 0; i < 6; i++) sandbox.control.createChannelLead({});
    await sandbox.control.whenDeliveriesSettled();
    await new Promise((r) => setTimeout(r, 5000));
    console.log('deliveries', sandbox.control.deliveries().map((d) => d.status), 'sink', sink.records.length, cluster.balancer.perBackend());
    console.log(await cluster.executionCounts(wf.id), await cluster.staticData(wf.id));
    console.log(cluster.workers.map((w) => cluster.workerExecutionIds(w)));
    console.log(await cluster.postgres.query(`select * from workflow_publication_trigger_status`));
  } finally {
    await cluster.stop(); await sink.close(); await sandbox.close();
    console.log('work', work);
  }
})().catch((e) => { console.error(e); process.exit(1); });
