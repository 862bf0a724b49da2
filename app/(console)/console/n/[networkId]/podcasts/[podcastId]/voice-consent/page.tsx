import { VoiceConsents } from '@/app/(console)/console/n/[networkId]/podcasts/_components/voice-consents';

export const metadata = { title: 'Voice consent' };

export default function Page() {
  return <VoiceConsents />;
}
