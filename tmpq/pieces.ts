import { ensureRedisAndPostgres } from '/work/wt/queue/harness/queue/system';
import { startRedis } from '/work/wt/queue/harness/queue/redis';
import { startPostgres } from '/work/wt/queue/harness/queue/postgres';
import { startBalancer } from '/work/wt/queue/harness/queue/balancer';
import { writeSelfSignedCertificate } from '/work/wt/queue/harness/support/tls';
import { httpCall } from '/work/wt/queue/harness/real-n8n/http';
import { freePort } from '/work/wt/queue/harness/support/ports';
import { createServer } from 'http';
import { mkdtempSync } from 'fs';
(async () => {
  const t = Date.now();
  const { redis, postgresBin } = await ensureRedisAndPostgres();
  const [r, p] = await Promise.all([startRedis(redis), startPostgres(postgresBin)]);
  console.log('started in', Date.now() - t, r.port, p.port, await p.query("select 1, 'a'"));
  const backs = await Promise.all([0, 1].map(async (i) => {
    const s = createServer((req, res) => { req.resume(); req.on('end', () => res.end('b' + i)); });
    await new Promise<void>((ok) => s.listen(0, '127.0.0.1', () => ok()));
    return s;
  }));
  const cert = writeSelfSignedCertificate(mkdtempSync('/tmp/lcq-'));
  const dead = await freePort();
  const b = await startBalancer({ certificate: cert, port: await freePort(), backends: [...backs.map((s) => (s.address() as any).port), dead] });
  for (let i = 0; i < 4; i++) console.log((await httpCall('POST', b.url + 'webhook/x', { body: { i } })).text);
  b.loseFirstAnswers(true);
  try { await httpCall('POST', b.url + 'webhook/x', { body: { i: 9 } }); } catch (e) { console.log('lost:', (e as Error).message); }
  console.log((await httpCall('POST', b.url + 'webhook/x', { body: { i: 9 } })).text);
  console.log(b.perBackend(), b.log.map((e) => [e.backend, e.status, e.lost]));
  await b.close(); backs.forEach((s) => s.close());
  await Promise.all([r.stop(), p.stop()]);
  console.log('stopped', Date.now() - t);
})().catch((e) => { console.error(e); process.exit(1); });
