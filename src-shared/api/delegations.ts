/**
 * Delegation (issue 28): a user hands their approvals, their tasks or both to another user for a date
 * range (inclusive); an administrator can set one for someone who is away. The stalled circuits: approval
 * circuits whose pending approver's account was deactivated, and their replacement. Schemas and
 * endpoints, shared by the server and the client (rules: src-server/modules/delegation/service.ts).
 */
import { z } from 'zod';
import { PAGES } from '../pages';
import { namedRefSchema } from './directory';
import { endpoint } from './endpoint';
import { dateOnlyField, decimalParam, idParamsSchema, multilineText, refIdField } from './fields';
import { DELEGATION_SCOPES } from './notifications-kinds';

export { DELEGATION_SCOPES, type DelegationScope } from './notifications-kinds';

/** Where a delegation stands on the organisation's today: not begun, in force, over (its end passed or ended early). */
export const DELEGATION_STATES = ['upcoming', 'inForce', 'over'] as const;
export type DelegationState = (typeof DELEGATION_STATES)[number];

/** A user as the delegation screens show them (with their department). */
export const delegationPersonSchema = namedRefSchema.extend({ department: namedRefSchema.nullable() });
export type DelegationPerson = z.infer<typeof delegationPersonSchema>;

export const delegationSchema = z.object({
  id: z.number().int(),
  delegator: delegationPersonSchema,
  delegate: delegationPersonSchema,
  scope: z.enum(DELEGATION_SCOPES),
  startsOn: z.string(),
  endsOn: z.string(),
  reason: z.string().nullable(),
  state: z.enum(DELEGATION_STATES),
  createdBy: namedRefSchema.nullable(),
  createdAt: z.string(),
  endedAt: z.string().nullable(),
  endedBy: namedRefSchema.nullable(),
});
export type Delegation = z.infer<typeof delegationSchema>;

/** GET /delegations/mine: what the caller gave and what they received, newest first. */
export const myDelegationsSchema = z.object({
  given: z.array(delegationSchema),
  received: z.array(delegationSchema),
  /** The organisation's today (YYYY-MM-DD): the first day a new delegation may start. */
  today: z.string(),
});
export type MyDelegations = z.infer<typeof myDelegationsSchema>;

/** POST /delegations: the caller delegates. */
export const delegationRequestSchema = z
  .object({
    delegateId: refIdField,
    scope: z.enum(DELEGATION_SCOPES),
    startsOn: dateOnlyField,
    endsOn: dateOnlyField,
    reason: z.string().trim().pipe(multilineText(500)).nullable().optional(),
  })
  .strict();
export type DelegationRequest = z.input<typeof delegationRequestSchema>;

/** POST /delegations/for: an administrator delegates for `delegatorId`. */
export const delegationForRequestSchema = delegationRequestSchema
  .extend({ delegatorId: refIdField })
  .strict();
export type DelegationForRequest = z.input<typeof delegationForRequestSchema>;

/** GET /delegations: every delegation, filtered. */
export const delegationListQuerySchema = z
  .object({
    /** Either side: the delegator or the delegate. */
    userId: decimalParam(1).optional(),
    state: z.enum(DELEGATION_STATES).optional(),
    scope: z.enum(DELEGATION_SCOPES).optional(),
  })
  .strict();
export type DelegationListQuery = z.input<typeof delegationListQuerySchema>;
export type DelegationListQueryParsed = z.output<typeof delegationListQuerySchema>;

/** GET /delegations/candidates?q=: active users one may delegate to (or for). */
export const delegationCandidatesQuerySchema = z.object({ q: z.string().max(100).optional() }).strict();

// ---------------------------------------------------------------- stalled circuits

/** A circuit stopped on an approver whose account is inactive. */
export const stalledCircuitSchema = z.object({
  /** The circuit row (approval_members) of the inactive approver: what is replaced. */
  memberId: z.number().int(),
  documentId: z.number().int(),
  direction: z.string(),
  docNumber: z.string().nullable(),
  subject: z.string(),
  step: z.number().int(),
  kind: z.enum(['opinion', 'sign']),
  approver: delegationPersonSchema,
  /** Since when the turn has waited on them (the step's activation). */
  since: z.string().nullable(),
  /** When their account was deactivated (its last update), when known. */
  deactivatedAt: z.string().nullable(),
});
export type StalledCircuit = z.infer<typeof stalledCircuitSchema>;

export const replaceApproverRequestSchema = z.object({ userId: refIdField }).strict();
export type ReplaceApproverRequest = z.infer<typeof replaceApproverRequestSchema>;
export const memberParamsSchema = z.object({ memberId: decimalParam(1) }).strict();

const own = { page: PAGES.myDelegation, permission: 'view' } as const;

export const delegationEndpoints = {
  mine: endpoint({
    method: 'GET',
    path: '/delegations/mine',
    response: myDelegationsSchema,
    access: own,
    tags: ['delegations'],
    summary: 'The caller’s delegations, given and received',
  }),
  candidates: endpoint({
    method: 'GET',
    path: '/delegations/candidates',
    query: delegationCandidatesQuerySchema,
    response: z.array(delegationPersonSchema),
    access: own,
    tags: ['delegations'],
    summary: 'Active users a delegation may name',
  }),
  create: endpoint({
    method: 'POST',
    path: '/delegations',
    body: delegationRequestSchema,
    response: delegationSchema,
    status: 201,
    message: 'delegation.created',
    access: own,
    tags: ['delegations'],
    summary: 'Delegate one’s approvals, tasks or both for a date range',
  }),
  end: endpoint({
    method: 'POST',
    path: '/delegations/:id/end',
    params: idParamsSchema,
    response: delegationSchema,
    message: 'delegation.ended',
    access: own,
    tags: ['delegations'],
    summary: 'End one’s own delegation (given or received) at once',
  }),
  list: endpoint({
    method: 'GET',
    path: '/delegations',
    query: delegationListQuerySchema,
    response: z.array(delegationSchema),
    access: { page: PAGES.delegations, permission: 'view' },
    tags: ['delegations'],
    summary: 'Every delegation (administration)',
  }),
  createFor: endpoint({
    method: 'POST',
    path: '/delegations/for',
    body: delegationForRequestSchema,
    response: delegationSchema,
    status: 201,
    message: 'delegation.created',
    access: { page: PAGES.delegations, permission: 'add' },
    tags: ['delegations'],
    summary: 'Delegate for someone who is away (administration)',
  }),
  endAny: endpoint({
    method: 'POST',
    path: '/delegations/:id/end-any',
    params: idParamsSchema,
    response: delegationSchema,
    message: 'delegation.ended',
    access: { page: PAGES.delegations, permission: 'edit' },
    tags: ['delegations'],
    summary: 'End any delegation at once (administration)',
  }),
  stalled: endpoint({
    method: 'GET',
    path: '/delegations/stalled-circuits',
    response: z.array(stalledCircuitSchema),
    access: { page: PAGES.stalledCircuits, permission: 'view' },
    tags: ['delegations'],
    summary: 'Approval circuits waiting on an inactive approver',
  }),
  replace: endpoint({
    method: 'POST',
    path: '/delegations/stalled-circuits/:memberId/replace',
    params: memberParamsSchema,
    body: replaceApproverRequestSchema,
    response: z.object({ documentId: z.number().int() }),
    message: 'delegation.replaced',
    access: { page: PAGES.stalledCircuits, permission: 'edit' },
    tags: ['delegations'],
    summary: 'Put an active user in place of a stalled circuit’s inactive approver',
  }),
} as const;
