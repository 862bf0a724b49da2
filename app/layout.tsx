import type { ReactNode } from 'react';

export const metadata = {
  title: 'Ad Network Service',
  description: 'API, console and webhooks for podcast ad networks.',
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
