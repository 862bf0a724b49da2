import type { ReactNode } from 'react';
import { THEME_SCRIPT } from '@/app/(console)/_lib/theme-script';

export const metadata = {
  title: 'Ad Network Service',
  description: 'API, console and webhooks for podcast ad networks.',
};

/**
 * The console's theme script is here because only the root layout renders <head>, where it runs
 * before anything is drawn; and this layout stays put through client navigation, so /docs → /console
 * keeps what it set. Elsewhere the attribute it sets is inert (only console.css reads it). That
 * attribute is not in the server's HTML, hence suppressHydrationWarning on <html>.
 */
export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <script dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
      </head>
      <body>{children}</body>
    </html>
  );
}
