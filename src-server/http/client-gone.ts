/**
 * A request whose sender went away before its answer (a scanning station killed while the server read
 * its batch): long work for it is given up, since nobody will read the answer and the sender's retry
 * (with the same Idempotency-Key) does it again. Only work that has made nothing yet is given up this way
 * — reading a batch's pages for codes, before anything is filed.
 */
import type { FastifyReply } from 'fastify';

export class ClientGone extends Error {
  constructor() {
    super('the client closed the connection before the answer');
    this.name = 'ClientGone';
  }
}

/** Aborts (with ClientGone) when the connection closes before the answer was written. */
export function clientGoneSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort(new ClientGone());
  });
  return controller.signal;
}
