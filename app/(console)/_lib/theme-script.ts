/**
 * The theme chosen with the console's toggle, applied before the first paint. No React here: the
 * root layout (a server component) puts THEME_SCRIPT in <head>, and `theme.ts` holds the hook.
 */

/** localStorage item: 'light' | 'dark'; absent means "follow the system". */
export const THEME_ITEM = 'ans.console.theme';

/** The attribute on <html> that console.css's `dark` variant reads; absent means "follow the system". */
export const THEME_ATTRIBUTE = 'data-console-theme';

/**
 * Runs in <head> before the body is parsed, so a stored choice is on <html> before anything is
 * drawn (no flash of the system's theme). The system's own preference needs no script: console.css
 * follows `prefers-color-scheme` wherever the attribute is absent. Storage may be refused (privacy
 * settings): then the system's theme it is.
 */
export const THEME_SCRIPT = `try{var t=localStorage.getItem(${JSON.stringify(THEME_ITEM)});if(t==='light'||t==='dark')document.documentElement.setAttribute(${JSON.stringify(THEME_ATTRIBUTE)},t)}catch(e){}`;
