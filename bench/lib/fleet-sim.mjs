// A simulated fleet for bench/fleet-scale.mjs, run as a child process (fork): each terminal of its
// share keeps one long-poll `POST /TerminalImpressao/ObterProxima?espera=S` parked (a new one as
// soon as the last answers, as `bobina agent` does) and sends `POST /TerminalImpressao/Sinal` every
// heartbeat, at its own phase. Polls get a socket each (keep-alive: the next poll reuses it);
// heartbeats share a small keep-alive pool. The parent sends `{ start: { base, keys, ... } }`,
// then `{ stats: true }` (answered with counts and the heartbeats' latencies since the last ask),
// then `{ stop: true }`.
import http from 'node:http';

const pollAgent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
const beatAgent = new http.Agent({ keepAlive: true, maxSockets: 32 });
const BODY = JSON.stringify({ impressora: { pronta: true, motivos: [] }, versaoAgente: 'bench-sim' });

let stopped = false;
const timers = new Set();
const s = { parked: 0, polls: 0, pollErrors: 0, beats: 0, beatErrors: 0, lat: [], errors: new Map() };

function post(url, key, agent, timeoutMs) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: 'POST', agent, timeout: timeoutMs,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(BODY) },
    }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`))));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('client timeout')));
    req.on('error', reject);
    req.end(BODY);
  });
}

const noteError = (err) => s.errors.set(err.code ?? err.message, (s.errors.get(err.code ?? err.message) ?? 0) + 1);
const later = (ms, fn) => {
  const t = setTimeout(() => {
    timers.delete(t);
    fn();
  }, ms);
  timers.add(t);
};

async function pollLoop(base, key, espera) {
  while (!stopped) {
    s.parked++;
    let failed;
    try {
      await post(`${base}/TerminalImpressao/ObterProxima?espera=${espera}`, key, pollAgent, (espera + 30) * 1000);
      s.polls++;
    } catch (err) {
      failed = err;
    }
    s.parked--;
    if (failed && !stopped) {
      s.pollErrors++;
      noteError(failed);
      await new Promise((r) => later(1000, r));
    }
  }
}

function beat(base, key, every) {
  if (stopped) return;
  const t = performance.now();
  post(`${base}/TerminalImpressao/Sinal`, key, beatAgent, 30_000).then(() => {
    s.beats++;
    s.lat.push(performance.now() - t);
  }, (err) => {
    if (stopped) return;
    s.beatErrors++;
    noteError(err);
  });
  later(every, () => beat(base, key, every));
}

// The bench gone (ended or killed): so is its fleet.
process.on('disconnect', () => process.exit(0));

process.on('message', (m) => {
  if (m.start) {
    const { base, keys, espera, heartbeatMs, rampMs } = m.start;
    keys.forEach((key, i) => {
      const at = (i / keys.length) * rampMs;
      later(at, () => {
        void pollLoop(base, key, espera);
        later(Math.random() * heartbeatMs, () => beat(base, key, heartbeatMs));
      });
    });
  } else if (m.stats) {
    process.send({ parked: s.parked, polls: s.polls, pollErrors: s.pollErrors, beats: s.beats, beatErrors: s.beatErrors, lat: s.lat, errors: Object.fromEntries(s.errors) });
    s.lat = [];
  } else if (m.stop) {
    stopped = true;
    for (const t of timers) clearTimeout(t);
    pollAgent.destroy();
    beatAgent.destroy();
    process.exit(0);
  }
});
