/**
 * Signing authority (src-server/modules/correspondence/signing.ts): who may sign for an entity — its
 * manager and the accounts an administrator granted it — and the grants, administered from the
 * department tree and read by the circuit editors. Shared by the directory and correspondence features.
 */
import { correspondenceEndpoints as E } from '../../src-shared/api/correspondence-endpoints';
import { call } from './call';

export const signingKeys = {
  all: ['correspondence', 'signing-authority'] as const,
  of: (departmentId: number) => ['correspondence', 'signing-authority', departmentId] as const,
};

export const signingApi = {
  /** A department's entity (itself when it is one), who holds signing authority for it now, and its grants. */
  of: (departmentId: number) => call(E.signingAuthority, { params: { departmentId } }),
  /** Grants an account signing authority for an entity. */
  grant: (entityId: number, userId: number) =>
    call(E.grantSigningAuthority, { params: { departmentId: entityId }, body: { userId } }),
  /** Revokes it (the grant is kept, revoked). */
  revoke: (entityId: number, userId: number) =>
    call(E.revokeSigningAuthority, { params: { departmentId: entityId, userId } }),
};
