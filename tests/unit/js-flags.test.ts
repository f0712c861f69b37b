/**
 * The desk's V8 flags (src-main/electron/js-flags.ts): which command lines start it again and with what,
 * and that its flags are the server's (scripts/build-server.mjs, SERVER_NODE_FLAGS), so the embedded server
 * in the desk runs as `npm run server` runs it.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  DESK_JS_FLAGS,
  RELAUNCHED_FOR_JS_FLAGS,
  jsFlagsOf,
  relaunchArgsForJsFlags,
} from '../../src-main/electron/js-flags';

const exe = '/opt/Sijill/sijill';

describe('the desk started again with its V8 flags', () => {
  it('starts again with every flag, keeping its own arguments', () => {
    const args = relaunchArgsForJsFlags([exe, '--lang=ar', 'file.pdf'], {});
    expect(args).not.toBeNull();
    expect(jsFlagsOf(args!)).toEqual([...DESK_JS_FLAGS]);
    expect(args!.slice(1)).toEqual(['--lang=ar', 'file.pdf']);
  });

  it('does not start again when the flags are there, however spelled or ordered', () => {
    expect(
      relaunchArgsForJsFlags([exe, `--js-flags=${[...DESK_JS_FLAGS].reverse().join(' ')}`], {}),
    ).toBeNull();
    const underscored = DESK_JS_FLAGS.map((f) => `--${f.slice(2).replace(/-/g, '_')}`);
    expect(relaunchArgsForJsFlags([exe, ...underscored.map((f) => `--js-flags=${f}`)], {})).toBeNull();
  });

  it('merges the flags a user gave with the missing ones into one switch', () => {
    const args = relaunchArgsForJsFlags(
      [exe, '--js-flags=--expose-gc', `--js-flags=${DESK_JS_FLAGS[0]}`],
      {},
    );
    expect(args!.filter((a) => a.startsWith('--js-flags='))).toHaveLength(1);
    expect(jsFlagsOf(args!)).toEqual(['--expose-gc', ...DESK_JS_FLAGS]);
    // A value the user chose for one of ours is theirs: it is not added again.
    const chosen = relaunchArgsForJsFlags([exe, '--js-flags=--max-semi-space-size=8'], {});
    expect(jsFlagsOf(chosen!).filter((f) => f.startsWith('--max-semi-space-size'))).toEqual([
      '--max-semi-space-size=8',
    ]);
  });

  it('never starts a third time', () => {
    expect(relaunchArgsForJsFlags([exe], { [RELAUNCHED_FOR_JS_FLAGS]: '1' })).toBeNull();
  });

  it('are the flags npm run server gives the server', async () => {
    const built = (await import(
      pathToFileURL(resolve(import.meta.dirname, '../../scripts/build-server.mjs')).href
    )) as {
      SERVER_NODE_FLAGS: string[];
    };
    expect([...built.SERVER_NODE_FLAGS].sort()).toEqual([...DESK_JS_FLAGS].sort());
  });
});
