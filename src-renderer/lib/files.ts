/**
 * Where the renderer reads one of our files (src-shared/files.ts): the file source on its own origin,
 * which main serves from the API with the session's token. In the web shell it also wants the launch
 * secret, in a header (the page never puts it in a URL another site could see).
 */
import { FILE_SOURCE_KEY_HEADER, FILE_SOURCE_PREFIX } from '../../src-shared/files';
import { webShellKey } from './bridge';

export function fileSource(apiPath: string): { url: string; httpHeaders?: Record<string, string> } {
  const url = new URL(`.${FILE_SOURCE_PREFIX}${apiPath}`, document.baseURI).href;
  const key = window.sijill ? null : webShellKey();
  return key ? { url, httpHeaders: { [FILE_SOURCE_KEY_HEADER]: key } } : { url };
}
