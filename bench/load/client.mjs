// The load generator of bench/load, in its own process: autocannon's programmatic API cycling through a
// realistic mix of requests on every connection. Reads its plan as JSON from argv[2]; prints autocannon's
// result as JSON. Each detail request asks for one of the given document ids at random.
import autocannon from 'autocannon';

const plan = JSON.parse(process.argv[2]);
const auth = { authorization: `Bearer ${plan.token}`, accept: 'application/json' };
const json = { ...auth, 'content-type': 'application/json' };
const pick = () => plan.documentIds[Math.floor(Math.random() * plan.documentIds.length)];
const requests = [];
for (const kind of plan.mix) {
  if (kind === 'box')
    requests.push({
      method: 'GET',
      path: '/correspondence/boxes/incoming?page=1&pageSize=20',
      headers: auth,
    });
  if (kind === 'detail')
    requests.push({
      method: 'GET',
      headers: auth,
      setupRequest: (r) => ({ ...r, path: `/correspondence/documents/${pick()}` }),
    });
  if (kind === 'tree') requests.push({ method: 'GET', path: '/auth/user-pages-tree', headers: auth });
  if (kind === 'draft')
    requests.push({
      method: 'POST',
      path: '/correspondence/documents',
      headers: json,
      body: JSON.stringify(plan.letter),
    });
  if (kind === 'register')
    requests.push({
      method: 'POST',
      path: '/correspondence/documents',
      headers: json,
      body: JSON.stringify({ ...plan.letter, register: true }),
    });
  if (kind === 'health') requests.push({ method: 'GET', path: '/health', headers: auth });
}
const result = await autocannon({
  url: plan.url,
  connections: plan.connections,
  duration: plan.seconds,
  requests,
});
process.stdout.write(
  JSON.stringify({
    reqPerSec: Math.round(result.requests.average),
    total: result.requests.total,
    latency: result.latency,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  }),
);
