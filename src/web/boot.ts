// The only script a prerendered public page with a form names (scripts/prerender.ts puts it in place of the app's
// entry, which it passes as `data-app`). The page paints from its HTML and stylesheet first; the app's code is
// fetched after that first paint, so on a slow link it does not share the bandwidth with the stylesheet or hold the
// paint up. A page opened in the background paints nothing yet (and runs no animation frames): it loads the app at once.
const app = document.querySelector<HTMLScriptElement>('script[data-app]')?.dataset.app;
const loadApp = () => void import(/* @vite-ignore */ app!);
if (app) {
  if (document.visibilityState === 'hidden') loadApp();
  else requestAnimationFrame(() => setTimeout(loadApp));
}
