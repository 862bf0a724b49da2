'use client';

import Link from 'next/link';
import { useState, type ComponentProps } from 'react';

/**
 * A `next/link` that prefetches its route when the person shows intent (pointer over it, focus,
 * touch) rather than as soon as it is on screen. A network page shows some twenty links at once
 * (navigation, count tiles, events); prefetching them all on arrival is ~20 RSC requests whose
 * answers the router processes on the main thread while the page is still starting up
 * (docs/PERFORMANCE.md, "Console (Lighthouse)"). Navigation itself is unchanged.
 */
export function IntentLink({ onPointerEnter, onFocus, onTouchStart, ...props }: ComponentProps<typeof Link>) {
  const [intent, setIntent] = useState(false);
  return (
    <Link
      prefetch={intent ? null : false}
      onPointerEnter={(event) => {
        setIntent(true);
        onPointerEnter?.(event);
      }}
      onFocus={(event) => {
        setIntent(true);
        onFocus?.(event);
      }}
      onTouchStart={(event) => {
        setIntent(true);
        onTouchStart?.(event);
      }}
      {...props}
    />
  );
}
