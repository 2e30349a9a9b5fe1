// Issue 25 in the browser: two `barbu serve` nodes, a and b, on one private
// PostgreSQL database (the CTest fixture `pg`: BARBU_TEST_PG names its
// admin URL), each with --lease 1.5 and the other's page let in.  A table of
// three computer players is made on node a over the protocol; ann opens the
// page of node b, finds the table in b's lobby (the shared lobby), clicks
// Sit and lands at the table on a (b answers `moved`, the page follows it
// with the same token and sits again there); she plays.  Then node a is
// killed (SIGKILL) mid-deal: the page reconnects through the addresses it
// knows, b adopts the table once a's lease has run out, and ann goes on
// playing at the same seat through b, without a reload.
//
// A page that ignores `moved` never reaches the table (the Sit seems to do
// nothing); one that keeps to the address it was loaded from after a's
// death still reaches b, but one that only knows a would never come back.

import { execFileSync } from 'node:child_process';
import { createServer } from 'node:net';
import { Agent } from './agent.mjs';
import { check, fail, sleep, startServer } from './harness.mjs';

/** Two free loopback ports (closed again at once: the nodes take them). */
async function freePorts(n) {
  const out = [];
  const held = [];
  for (let i = 0; i < n; i++) {
    const srv = createServer();
    await new Promise((res, rej) => {
      srv.once('error', rej);
      srv.listen(0, '127.0.0.1', res);
    });
    held.push(srv);
    out.push(srv.address().port);
  }
  for (const srv of held) await new Promise((res) => srv.close(res));
  return out;
}

/** A fresh database in the test cluster; its URL. */
function freshDatabase(name) {
  const admin = process.env.BARBU_TEST_PG;
  if (!admin) fail('BARBU_TEST_PG is not set: run this scenario through CTest (fixture pg), or start tests/pg/cluster.sh and export the URL it prints');
  const psql = (sql) => execFileSync('psql', ['-q', '-v', 'ON_ERROR_STOP=1', '-d', admin, '-c', sql], { stdio: ['ignore', 'pipe', 'pipe'] });
  psql(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  psql(`CREATE DATABASE ${name}`);
  const url = admin.replace(/\/postgres\?/, `/${name}?`);
  check(url !== admin, 'BARBU_TEST_PG should name the database postgres (postgresql://barbu@/postgres?host=...)', { actual: admin });
  return url;
}

async function nodes(sc) {
  // run.mjs started a plain server for every scenario: this one has two nodes.
  if (sc.server) {
    await sc.server.stop();
    sc.server = null;
  }
  const db = freshDatabase(`browser_nodes_${process.pid}`);
  const [pa, pb] = await freePorts(2);
  const wsOf = (port) => `ws://127.0.0.1:${port}/ws`;
  const node = (name, port, other) => ['--node', name, '--public-url', wsOf(port), '--lease', '1.5', '--allow-origin', `http://127.0.0.1:${other}`];
  const a = await startServer({ barbu: sc.opts.barbu, web: sc.opts.web, dir: sc.tmp('a'), port: pa, db, extra: node('a', pa, pb) });
  try {
    sc.log('node a at', a.url);
    // Node b is the scenario's server: it is the one stopped (SIGTERM, exit 0) at the end.
    sc.server = await startServer({ barbu: sc.opts.barbu, web: sc.opts.web, dir: sc.tmp('b'), port: pb, db, extra: node('b', pb, pa) });
    sc.log('node b at', sc.server.url);
    await play(sc, a, pa, pb, wsOf);
  } finally {
    if (a.child.exitCode === null && a.child.signalCode === null) a.child.kill('SIGKILL');
  }
}

async function play(sc, a, pa, pb, wsOf) {
  const ann = await sc.person('ann');
  // Every WebSocket the page opens, in order, and whether it is still open.
  const sockets = [];
  ann.page.on('websocket', (ws) => {
    const s = { url: ws.url(), open: true };
    ws.on('close', () => (s.open = false));
    sockets.push(s);
  });
  await ann.open();

  // The table, on node a, made over the protocol from b's page (a lets b's origin in).
  const id = await ann.page.evaluate(async (url) => {
    const ws = new WebSocket(url);
    await new Promise((res, rej) => {
      ws.onopen = res;
      ws.onerror = () => rej(new Error(`cannot open ${url}`));
    });
    const next = (pred) =>
      new Promise((res) => {
        const f = (e) => {
          const m = JSON.parse(e.data);
          if (pred(m)) {
            ws.removeEventListener('message', f);
            res(m);
          }
        };
        ws.addEventListener('message', f);
      });
    ws.send(JSON.stringify({ type: 'hello', version: 1, name: 'robo-a' }));
    const w = await next((m) => m.type === 'welcome' || m.type === 'error');
    if (w.type === 'error') return `${w.code}: ${w.text}`;
    ws.send(JSON.stringify({ type: 'create', rules: 'uk', seed: '1', bots: ['E', 'S', 'W'], level: 'easy', delay: 50, kibitz: 'seat' }));
    const m = await next((m) => m.type === 'created' || m.type === 'error');
    ws.close();
    return m.type === 'created' ? m.table : `${m.code}: ${m.text}`;
  }, wsOf(pa));
  check(typeof id === 'number', 'a table of three computer players should be created on node a over the protocol', { actual: id });
  sc.log(`table ${id} created on node a`);

  await ann.login('ann-nodes');
  const row = `#lobby [data-table="${id}"]`;
  await ann.visible(row, `table ${id} of node a in node b's lobby (${row})`, 15000);
  const before = sockets.length;
  await ann.page.evaluate(() => {
    window.__barbuSameDocument = 'yes';
  });

  // Sit: b says moved, the page goes to a with the same token and sits there.
  ann.seat = 'N';
  await ann.click(`${row} button[data-sit=N]`, { what: `the Sit button of North at table ${id}` });
  let s = await ann.until((x) => x.table && x.you === 'N' && x.at !== null && x.phase && x.conn === 'open', `#table[data-you=N] of table ${id} after Sit in node b's lobby (b answers moved: the page must follow it to node a)`, 20000);
  const toA = sockets.slice(before).filter((x) => x.url === wsOf(pa));
  check(toA.length >= 1 && toA[toA.length - 1].open, `after Sit the page's WebSocket should be open to node a (${wsOf(pa)})`, { actual: sockets.slice(before), page: ann });
  // Nothing said but the usual connection state: no error, no dialog.
  const quiet = async (when) => {
    const x = await ann.state();
    const dialogs = await ann.count('dialog[open]');
    check(!(x.notice && (x.notice.alert || /no longer|lost|error/i.test(x.notice.text))) && dialogs === 0, `no notice or dialog should tell ann of the nodes (${when})`, { actual: { notice: x.notice, dialogs }, page: ann });
  };
  await quiet('after following moved to node a');
  const tableId = await ann.attr('#table', 'data-table').catch(() => null);
  if (tableId !== null) check(Number(tableId) === id, `the table shown should be ${id}`, { actual: tableId, page: ann });
  sc.log(`ann at table ${id} on node a: phase ${s.phase}, at ${s.at}`);

  // A few moves on a.
  const agent = new Agent(sc, ann, { seed: 3, illegalPerDeal: 0 });
  const atSit = s.at;
  s = await agent.run((x) => x.at >= atSit + 8 && x.phase === 'play', { limitMs: 60000, what: 'eight actions after sitting, in the play' });
  sc.log(`on node a: at ${s.at}, phase ${s.phase}; killing node a`);

  // Node a dies mid-deal.
  const atKill = s.at;
  a.child.kill('SIGKILL');
  const gone = Date.now();
  await ann.until((x) => x.conn !== 'open', '#conn to leave "open" once node a is killed', 10000, 20);
  s = await ann.until((x) => x.conn === 'open' && x.table && x.you === 'N', '#conn[data-state=open] back at the table through node b (after a\'s lease ran out and b adopted the table)', 40000, 50);
  sc.log(`back at the table ${((Date.now() - gone) / 1000).toFixed(1)} s after the kill, at ${s.at}`);
  check(s.at >= atKill, 'nothing done before the kill may be lost', { expected: `data-at >= ${atKill}`, actual: s.at, page: ann });
  await quiet('back through node b');

  // The game goes on through b.
  s = await agent.run((x) => x.at >= atKill + 8, { limitMs: 60000, what: 'eight more actions after node a was killed' });
  const live = sockets.filter((x) => x.open);
  check(live.length === 1 && live[0].url === wsOf(pb), `after a's death the page's one open WebSocket should be node b's (${wsOf(pb)})`, { actual: sockets.slice(before), page: ann });
  const same = await ann.page.evaluate(() => window.__barbuSameDocument);
  check(same === 'yes' && sc.stats.reloads === 0, 'the page should carry on without a reload', { actual: same, page: ann });
  check(s.table && s.you === 'N', 'ann should still be North at the table', { actual: s, page: ann });
  await sc.shot(ann, 'after-failover', { focus: '#table' });
  sc.stats.extra = `sockets=${sockets.length} at=${s.at}`;
  // Let b's lease renewals and the page settle before b is stopped.
  await sleep(200);
}

export const NODES = { nodes };
