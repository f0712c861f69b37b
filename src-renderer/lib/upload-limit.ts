/**
 * The largest file the server accepts, as the server says it (`GET /health` → `uploadMaxBytes`): the
 * forms check a file against it before sending and show it in their hints. Until the answer arrives the
 * server's default is assumed; the server checks again in any case (413).
 */
import { useQuery } from '@tanstack/react-query';
import type { Health } from '../../src-shared/api/envelope';
import { http } from './http';

/** The server's default UPLOAD_MAX_BYTES (src-server/config.ts). */
export const DEFAULT_UPLOAD_MAX_BYTES = 25 * 1024 * 1024;

export function useUploadLimit(): number {
  const health = useQuery({
    queryKey: ['health'],
    queryFn: () => http.get<Health>('/health', { suppressErrorToast: true }),
    staleTime: 5 * 60_000,
  });
  return health.data?.uploadMaxBytes ?? DEFAULT_UPLOAD_MAX_BYTES;
}
