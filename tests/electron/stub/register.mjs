// `node --import ./register.mjs`: installs the hook that maps `electron` to the stub.
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
