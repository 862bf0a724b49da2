import { Mic2 } from 'lucide-react';
import { buttonVariants } from '@/app/(console)/_components/ui/button';
import { IntentLink } from '@/app/(console)/_components/ui/intent-link';
import { networkPath, useNetworkId } from '@/app/(console)/_lib/network';

/** A podcast row's way to its host's voice consents (voice-consents.tsx). */
export function VoiceConsentLink({ podcast }: { podcast: { id: string; name: string } }) {
  const networkId = useNetworkId();
  return (
    <IntentLink
      href={networkPath(networkId, `podcasts/${encodeURIComponent(podcast.id)}/voice-consent`)}
      className={buttonVariants({ variant: 'ghost', size: 'sm' })}
      aria-label={`Voice consent for ${podcast.name}`}
    >
      <Mic2 aria-hidden /> Consent
    </IntentLink>
  );
}
