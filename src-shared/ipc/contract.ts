/**
 * The IPC contract: every channel between the renderer and main, with its zod input and output, declared
 * once in its area's file (app, api, session, connection, station, drafts, print, notifications) and composed here. Main
 * dispatches from this table, the preload and the web shell bridge it, and the renderer's bridge type is
 * derived from it. A new channel touches three files: its area's file, names.ts (the zod-free name list,
 * checked against this table at compile time) and its handler in src-main/ipc/handlers.ts.
 */
import type { z } from 'zod';
import { apiChannels } from './api';
import { appChannels } from './app';
import { connectionChannels, connectionEvents } from './connection';
import { draftsChannels, draftsEvents } from './drafts';
import type { ChannelNameList, EventNameList, MethodName } from './names';
import { notificationsEvents } from './notifications';
import { sessionChannels, sessionEvents } from './session';
import { printChannels } from './print';
import { stationChannels } from './station';
import type { IpcResult } from './common';

export * from './common';
export * from './app';
export * from './api';
export * from './session';
export * from './connection';
export * from './station';
export * from './drafts';
export * from './print';
export * from './notifications';

export const contract = {
  ...appChannels,
  ...apiChannels,
  ...sessionChannels,
  ...connectionChannels,
  ...stationChannels,
  ...draftsChannels,
  ...printChannels,
} as const;

export type Contract = typeof contract;
export type ChannelName = keyof Contract;
export type ChannelInput<C extends ChannelName> = z.input<Contract[C]['input']>;
export type ChannelOutput<C extends ChannelName> = z.output<Contract[C]['output']>;
export const CHANNELS = Object.keys(contract) as ChannelName[];

/** Events main pushes to the renderer. */
export const events = {
  ...sessionEvents,
  ...connectionEvents,
  ...draftsEvents,
  ...notificationsEvents,
} as const;
export type EventName = keyof typeof events;
export type EventPayload<E extends EventName> = z.output<(typeof events)[E]>;
export const EVENTS = Object.keys(events) as EventName[];

export { methodName, type MethodName } from './names';

// The zod-free name lists (names.ts) must be exactly this contract's channels and events.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _channelNamesMatch: Same<ChannelNameList, ChannelName> = true;
const _eventNamesMatch: Same<EventNameList, EventName> = true;
void _channelNamesMatch;
void _eventNamesMatch;

type Args<C extends ChannelName> =
  undefined extends ChannelInput<C> ? [input?: ChannelInput<C>] : [input: ChannelInput<C>];

/** The shape of `window.sijill`: one function per channel, plus event subscription. */
export type SijillBridge = {
  [C in ChannelName as MethodName<C>]: (...args: Args<C>) => Promise<IpcResult<ChannelOutput<C>>>;
} & {
  /** Subscribes to an event main pushes; returns the unsubscribe function. */
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
};

/** The IPC channel name used on the wire for events. */
export const EVENT_WIRE_PREFIX = 'event:';
