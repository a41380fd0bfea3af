// A webhook receiver for bobina's end-of-job callbacks (docs/webhooks.md): verifies each message's
// signature and timestamp with verifyWebhook, ignores a message it has seen (delivery is at least
// once: dedupe by webhook-id), and answers 204 at once.
//
//   BOBINA_WEBHOOK_SECRET=whsec_… PORT=3000 node examples/webhook-receiver/receiver.mjs
//
// It prints one line per new event on stdout: "<type> <intencaoImpressaoId> <status>".
import { createServer } from 'node:http';
import { verifyWebhook } from 'bobina';

const secret = process.env.BOBINA_WEBHOOK_SECRET;
if (!secret) {
  console.error('set BOBINA_WEBHOOK_SECRET to the whsec_… secret `bobina webhooks add` printed');
  process.exit(2);
}

const seen = new Set(); // in a real receiver: your database, so a restart remembers
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', async () => {
    const raw = Buffer.concat(chunks); // the body exactly as received: the signature covers these bytes
    let event;
    try {
      event = await verifyWebhook(secret, req.headers, raw, { toleranceSeconds: 300 });
    } catch {
      res.writeHead(400).end();
      return;
    }
    const id = req.headers['webhook-id'];
    if (!seen.has(id)) {
      seen.add(id);
      console.log(`${event.type} ${event.data.intencaoImpressaoId} ${event.data.status}`);
    }
    res.writeHead(204).end(); // any 2xx, quickly: do slow work after answering
  });
});

server.listen(Number(process.env.PORT ?? 3000), process.env.HOST ?? '127.0.0.1', () => {
  const { address, port } = server.address();
  console.log(`listening on http://${address}:${port}`);
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.close(() => process.exit(0)));
