import type { ReactNode } from 'react';
import { ConsoleProviders } from './_lib/providers';
import './console.css';

export const metadata = {
  title: { default: 'Console · Ad Network Service', template: '%s · Console' },
};

/** Everything under /console: Tailwind styles, React Query, toasts. */
export default function ConsoleLayout({ children }: { children: ReactNode }) {
  return (
    <div className="min-h-dvh font-sans">
      <ConsoleProviders>{children}</ConsoleProviders>
    </div>
  );
}
