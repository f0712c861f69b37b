#!/usr/bin/env node
// `npm run server [command] [options]`: builds the server bundle (scripts/build-server.mjs, under a
// second) and runs it as a child process with the server's Node flags (SERVER_NODE_FLAGS) and this
// process's arguments (see src-server/cli.ts). Signals are passed on; the exit code is the server's.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { SERVER_ENV, SERVER_NODE_FLAGS, buildServer } from './build-server.mjs';

const entry = await buildServer();
const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, entry, ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...SERVER_ENV, ...process.env },
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) =>
  process.exit(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 1)),
);
