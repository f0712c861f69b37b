/**
 * The success envelope of docs/api.md: `{ data, returnMessage }`. Every non-GET success carries a localised
 * returnMessage (the client toasts it), so `reply.envelope` requires one for those methods.
 */
import type { FastifyRequest } from 'fastify';
import { hasText, translate } from '../i18n';
import type { Locale } from '../../src-shared/locale';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's language, from `Accept-Language` (default `ar`). */
    locale: Locale;
  }
}

/** Builds the envelope for a request: GETs carry no message unless given; others default to "saved". */
export function envelope<T>(
  request: FastifyRequest,
  data: T,
  messageKey?: string,
  params?: Record<string, unknown>,
) {
  const wanted = messageKey ?? (request.method === 'GET' ? undefined : 'messages.saved');
  // A key missing from the catalogue must never reach the user as itself: say the general sentence.
  const key = wanted && !hasText(request.locale, wanted) ? 'messages.saved' : wanted;
  return key ? { data, returnMessage: translate(request.locale, key, params) } : { data };
}
