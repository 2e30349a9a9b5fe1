// Issue 23's TLS in the browser: barbu serve --tls-cert/--tls-key with a
// certificate made here (the openssl program); ann loads the client over
// https://, its WebSocket is wss:// (the page takes its scheme), she makes a
// table with three computer players and plays a few cards over it.  The
// browser is told to accept the self-signed certificate (ignoreHTTPSErrors).

import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { Agent } from './agent.mjs';
import { check } from './harness.mjs';

async function tls(sc) {
  const dir = sc.tmp('cert');
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-subj', '/CN=localhost',
    '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1', '-days', '2', '-keyout', key, '-out', cert], { stdio: 'ignore' });
  // run.mjs started a plain server for every scenario: this one speaks TLS.
  if (sc.server) {
    await sc.server.stop();
    sc.server = null;
  }
  await sc.start({ tls: { cert, key } });
  check(sc.server.url.startsWith('https://'), 'the server should say https:// when started with --tls-cert', { actual: sc.server.url });

  const ann = await sc.person('ann');
  const sockets = [];
  ann.page.on('websocket', (ws) => sockets.push(ws.url()));
  await ann.open(true);
  const proto = await ann.page.evaluate(() => location.protocol);
  check(proto === 'https:', 'the page should load over https://', { expected: 'https:', actual: proto, page: ann });
  await ann.login('ann-tls');
  check(sockets.length >= 1 && sockets.every((u) => u.startsWith('wss://')), "the page's WebSocket should be wss:// on an https:// page", { expected: 'wss://...', actual: sockets, page: ann });
  await sc.shot(ann, 'lobby', { focus: '#lobby' });
  await ann.createTable(sc, { rules: 'classic', seed: 1, delay: 20 });
  const agent = new Agent(sc, ann, { seed: 5 });
  const s = await agent.run((x) => agent.seen.play >= 4, { limitMs: 90000, what: 'four cards played by ann over wss://' });
  check(agent.seen.play >= 4, 'ann should have played four cards', { actual: { seen: agent.seen, state: s }, page: ann });
  await sc.shot(ann, 'table', { focus: '#table' });
  check(sockets.every((u) => u.startsWith('wss://')), 'every WebSocket the page opened should be wss://', { actual: sockets });
  sc.stats.extra = `websockets=${sockets.join(',')} cards=${agent.seen.play}`;
}

export const TLS_SCENARIOS = { tls };
