/**
 * The channel and event names of the IPC contract without their zod schemas, so the renderer's bridge
 * can be built without bundling zod into the first screen. contract.ts checks at compile time that these
 * lists are exactly its channels and events.
 */
export const CHANNEL_NAMES = [
  'app:info',
  'settings:get',
  'settings:set',
  'api:request',
  'api:upload',
  'api:download',
  'session:state',
  'session:login',
  'session:two-factor-setup',
  'session:two-factor-verify',
  'session:two-factor-skip',
  'session:logout',
  'session:profile',
  'session:pages-tree',
  'session:change-password',
  'setup:status',
  'setup:create',
  'connection:get',
  'connection:set',
  'station:status',
  'station:configure',
  'station:pause',
  'station:resume',
  'station:retry',
  'station:choose-folder',
  'drafts:list',
  'drafts:get',
  'drafts:save',
  'drafts:claim',
  'drafts:settled',
  'drafts:remove-file',
  'drafts:delete',
  'drafts:sync',
  'drafts:resolve',
  'print:printers',
  'print:silent',
] as const;
export type ChannelNameList = (typeof CHANNEL_NAMES)[number];

export const EVENT_NAMES = [
  'session:expired',
  'connection:changed',
  'drafts:changed',
  'notifications:new',
  'notifications:unread',
  'notifications:open',
] as const;
export type EventNameList = (typeof EVENT_NAMES)[number];

/** `app:info` → `appInfo`: the method name a channel has on `window.sijill`. */
export type MethodName<S extends string> = S extends `${infer A}:${infer B}`
  ? `${A}${Capitalize<MethodName<B>>}`
  : S extends `${infer A}-${infer B}`
    ? `${A}${Capitalize<MethodName<B>>}`
    : S;

export function methodName<C extends string>(channel: C): MethodName<C> {
  return channel.replace(/[:-]([a-z])/g, (_m, c: string) => c.toUpperCase()) as MethodName<C>;
}
