import { EmailSignIn } from './email-sign-in';

export const metadata = { title: 'Signing in' };

/** /console/sign-in/email#token=sil_…: where an emailed sign-in link lands; it signs the tab in, once. */
export default function EmailSignInPage() {
  return (
    <main id="main" className="flex min-h-dvh items-center justify-center px-4 py-10">
      <EmailSignIn />
    </main>
  );
}
