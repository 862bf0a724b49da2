import { BRAND_ICON as Brand } from './nav-items';

/** The product's mark above the card of a page outside the shell (sign-in, a sign-in link, an invitation). */
export function ConsoleBrand() {
  return (
    <div className="mb-6 flex items-center justify-center gap-2 text-slate-900">
      <Brand className="size-6 text-indigo-600" aria-hidden />
      <span className="text-lg font-semibold">Ad Network Console</span>
    </div>
  );
}
