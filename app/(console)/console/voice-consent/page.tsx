import { VoiceConsent } from './voice-consent';

export const metadata = { title: 'Voice consent' };

/** /console/voice-consent#token=vcl_…: a podcast host reads the consent statement and grants, refuses, or later revokes. */
export default function VoiceConsentPage() {
  return (
    <main id="main" className="flex min-h-dvh items-start justify-center px-4 py-8 sm:items-center sm:py-10">
      <VoiceConsent />
    </main>
  );
}
