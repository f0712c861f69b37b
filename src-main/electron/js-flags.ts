/**
 * The V8 flags of the desk's main process, where the embedded server and its PGlite run. They are the
 * flags `npm run server` gives the server (scripts/build-server.mjs, SERVER_NODE_FLAGS; a unit test keeps
 * the two lists alike): PGlite's WebAssembly compiled by V8's baseline compiler only, and a small young
 * generation (docs/decisions.md, "The embedded server's memory"). V8 reads them when the process starts —
 * `v8.setFlagsFromString` later changes nothing measurable, and `app.commandLine.appendSwitch('js-flags')`
 * reaches only the processes main starts — so a packaged desk started without them starts itself again
 * once, with `--js-flags`, before it opens anything.
 */

/** The flags, as V8 spells them. */
export const DESK_JS_FLAGS = ['--liftoff-only', '--max-semi-space-size=2', '--optimize-for-size'] as const;

/** Set in the environment of the process started again, so that it never starts a third. */
export const RELAUNCHED_FOR_JS_FLAGS = 'SIJILL_RELAUNCHED_FOR_JS_FLAGS';

/** The flags given by `--js-flags=…` switches on a command line. */
export function jsFlagsOf(argv: readonly string[]): string[] {
  return argv
    .filter((arg) => arg.startsWith('--js-flags='))
    .flatMap((arg) => arg.slice('--js-flags='.length).split(/\s+/))
    .filter(Boolean);
}

/**
 * The arguments (after the executable) to start the desk again with, or null when it need not: its command
 * line has every flag already, or this process is itself the one started again. A `--js-flags` switch
 * already given is kept, merged with ours into one, so a flag the user passed is not lost.
 */
export function relaunchArgsForJsFlags(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  flags: readonly string[] = DESK_JS_FLAGS,
): string[] | null {
  if (env[RELAUNCHED_FOR_JS_FLAGS]) return null;
  const given = jsFlagsOf(argv);
  const name = (flag: string) => flag.split('=')[0]!.replace(/_/g, '-');
  const missing = flags.filter((flag) => !given.some((g) => name(g) === name(flag)));
  if (missing.length === 0) return null;
  const rest = argv.slice(1).filter((arg) => !arg.startsWith('--js-flags='));
  return [`--js-flags=${[...given, ...missing].join(' ')}`, ...rest];
}
