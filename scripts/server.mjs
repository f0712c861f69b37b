#!/usr/bin/env node
// `npm run server [command] [options]`: builds the server bundle (scripts/build-server.mjs, under a
// second) and runs it in this process, with this process's arguments (see src-server/cli.ts).
import { pathToFileURL } from 'node:url';
import { buildServer } from './build-server.mjs';

const entry = await buildServer();
await import(pathToFileURL(entry).href);
