// Issue 20 §5: bobina agent does not trust its transport. It reads no answer past what a job can be
// (a service, or whatever answers in its place, streaming 60 MB gets it hung up on), warns when its
// key would travel over plain http to another machine, stamps every line with the time, and says
// when the service is back and while it retries a report. Real processes on 127.0.0.1, on both
// stores; every process is killed by pid.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_ANSWER_BYTES } from '../../src/delivery/http-link.js';
import { CLI, ROOT } from '../support/cli.js';
import { child, fixture, tempDir, virtualPrinter } from './helpers.js';
import { serviceHarness, type Intencao } from './service-harness.js';

const h = serviceHarness({ printer: 'MAKER5T20', serveFlags: ['--lease', '2s'] });
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => (s.closeAllConnections(), s.close(r)))));
});

const STAMPED = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z bobina agent: /;

/** The agent's peak memory (VmHWM), in bytes. */
function peakRss(pid: number): number {
  const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]!;
  return Number(kb) * 1024;
}

describe('bobina agent and its transport', () => {
  it('caps an answer at the size docs/delivery.md and its comment state (both once said 1,024 bytes less)', () => {
    const figure = MAX_ANSWER_BYTES.toLocaleString('en-US');
    expect(readFileSync(`${ROOT}/docs/delivery.md`, 'utf8')).toContain(`no answer longer than a job can be: ${figure} bytes`);
    expect(readFileSync(`${ROOT}/src/delivery/http-link.ts`, 'utf8')).toContain(`64 KiB for the rest (${figure}\n * bytes with the default limits)`);
  });

  it('reads no answer longer than a job can be: a 60 MB answer is hung up on, and memory stays small', async () => {
    let sent = 0;
    const huge = 60 * 1024 * 1024;
    const chunk = Buffer.alloc(64 * 1024, 0x41);
    const server = createServer((req, res) => {
      if (req.url?.startsWith('/TerminalImpressao/Retomar')) return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"retomadas":0}');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data":"x","trabalho":{"intencaoImpressaoId":1,"tokenEntrega":"t","codigoImpressora":"MAKER5T20","bytes":"');
      const pump = () => {
        while (sent < huge && !res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        if (!res.destroyed) res.end('"}}');
      };
      pump();
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const agent = child([CLI, 'agent', '--url', url, '--key', 'bobt_x', '--terminal', 'PDV-1', '--device', '-', '--state-dir', tempDir(), '--retry-ms', '5000']);
    await agent.errLine(new RegExp(`answer is larger than ${MAX_ANSWER_BYTES} bytes`), 20_000);
    expect(agent.process.exitCode).toBeNull();
    expect(peakRss(agent.process.pid!)).toBeLessThan(200 * 1024 * 1024);
    // Hung up on: what was sent is what the answer was cut at, plus what the sockets' buffers held.
    await new Promise((r) => setTimeout(r, 200));
    expect(sent).toBeLessThan(huge / 2);
  }, 30_000);

  it('warns that plain http to another machine carries the key in clear; not for this machine, nor for https', async () => {
    const run = async (url: string) => {
      const agent = child([CLI, 'agent', '--url', url, '--key', 'bobt_x', '--terminal', 'PDV-1', '--device', '-', '--state-dir', tempDir(), '--retry-ms', '5000']);
      await agent.errLine(/taking jobs/);
      process.kill(agent.process.pid!, 'SIGTERM');
      await agent.exited;
      return agent.stderr();
    };
    // 192.0.2.1 is TEST-NET-1: nothing answers there; the warning comes before any request.
    expect(await run('http://192.0.2.1:8080')).toMatch(/warning: 192\.0\.2\.1:8080 is reached over plain http: the terminal key and every job travel unencrypted/);
    for (const url of ['http://127.0.0.1:9', 'http://localhost:9', 'http://[::1]:9', 'https://192.0.2.1:8443']) expect(await run(url)).not.toMatch(/warning/);
  }, 30_000);

  it('stamps every line with the time, says while it retries a report and when the service is back', async () => {
    await h.start();
    const vp = await virtualPrinter({ printer: 'MAKER5T20', state: { slow: 4000 } });
    const t = h.terminal();
    const agent = h.agent(t, vp.address);
    const job = await h.insert(t.id, fixture('nfce.txt'));
    await h.until(job.id, (i) => i.estado === 'printing');
    // The service dies while the job prints: the report of its end cannot be delivered.
    await h.kill();
    await agent.errLine(/job \d+: report completed not delivered \(.*\); trying again in \d+ ms/, 20_000);
    await h.start();
    await agent.errLine(/report completed delivered after \d+ failed attempt\(s\)|service reachable again after \d+ failed attempt\(s\)/, 30_000);
    const done = await h.until(job.id, (i: Intencao) => i.estado === 'completed', 30_000);
    expect(done.confirmacao).toBe('printer');
    expect(vp.jobs).toHaveLength(1);
    const lines = agent.stderr().trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) expect(line).toMatch(STAMPED);
  }, 90_000);
});
