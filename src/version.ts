declare const __EDP_VERSION__: string;

/** Set at build time from package.json; tests run from source. */
export const VERSION: string = typeof __EDP_VERSION__ !== 'undefined' ? __EDP_VERSION__ : '0.0.0-dev';
