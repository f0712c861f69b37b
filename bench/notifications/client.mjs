// The SSE clients of bench/notifications, in their own process (they must not share the server's event
// loop): opens one GET /notifications/stream per token over one agent without a socket limit, parses the
// events, and reports to the parent over IPC — `connected` once every stream has had its first `unread`
// event (with the time that took), then each `notification` event's arrival time (Date.now(), batched),
// and any error or stream that ends. The parent sends { type: 'start', url, path, clients: [{ user, token }] }
// and { type: 'stop' }.
import http from 'node:http';

const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
const requests = [];
let pending = [];
let flushTimer = null;

function report(message) {
  pending.push(message);
  // Batched: a broadcast makes 1,000 events at once, one IPC message each would cost more than them.
  if (!flushTimer)
    flushTimer = setTimeout(() => {
      flushTimer = null;
      const batch = pending;
      pending = [];
      if (process.connected) process.send({ type: 'batch', items: batch });
    }, 20);
}

function open(url, path, client, onFirstUnread) {
  const req = http.get(
    new URL(path, url),
    { agent, headers: { authorization: `Bearer ${client.token}`, accept: 'text/event-stream' } },
    (res) => {
      if (res.statusCode !== 200) {
        report({ type: 'error', user: client.user, message: `status ${res.statusCode}` });
        res.resume();
        return;
      }
      res.setEncoding('utf8');
      let buffer = '';
      let first = true;
      res.on('data', (chunk) => {
        const at = Date.now();
        buffer += chunk;
        let cut;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          let event = 'message';
          let data = '';
          for (const line of block.split('\n')) {
            if (line.startsWith('event: ')) event = line.slice(7);
            else if (line.startsWith('data: ')) data += line.slice(6);
          }
          if (event === 'unread' && first) {
            first = false;
            onFirstUnread();
          } else if (event === 'notification') {
            const n = JSON.parse(data);
            report({
              type: 'notification',
              user: client.user,
              id: n.id,
              kind: n.kind,
              documentId: n.document?.id ?? null,
              at,
            });
          }
        }
      });
      res.on('end', () => report({ type: 'ended', user: client.user }));
      res.on('error', (e) => report({ type: 'error', user: client.user, message: e.message }));
    },
  );
  req.on('error', (e) => report({ type: 'error', user: client.user, message: e.message }));
  requests.push(req);
}

process.on('message', (message) => {
  if (message.type === 'start') {
    const started = Date.now();
    let connected = 0;
    for (const client of message.clients)
      open(message.url, message.path, client, () => {
        connected += 1;
        if (connected === message.clients.length)
          process.send({ type: 'connected', clients: connected, ms: Date.now() - started });
      });
  }
  if (message.type === 'stop') {
    clearTimeout(flushTimer);
    for (const req of requests) req.destroy();
    agent.destroy();
    process.disconnect();
  }
});
