/** The year the web app was built in (vite.config.ts `define`). */
declare const __BUILD_YEAR__: number;
