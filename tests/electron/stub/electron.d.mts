// Types of the Electron stand-in (electron.mjs), for the tests that import it directly.
import type { EventEmitter } from 'node:events';

export declare class Notification extends EventEmitter {
  static isSupported(): boolean;
  constructor(options: { title: string; body: string });
  options: { title: string; body: string };
  show(): void;
  close(): void;
}

export declare const recorded: {
  notices: Notification[];
  [key: string]: unknown;
};
