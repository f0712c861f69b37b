/** The product version, read once from package.json at build time. */
import pkg from '../package.json';
export const VERSION: string = pkg.version;
