import { Unsubscribe } from './unsubscribe';

export const metadata = { title: 'Turn off emails' };

/** /console/notifications/unsubscribe#token=usr_….<kind>.…: a notice's footer link; nothing changes until the button is pressed. */
export default function UnsubscribePage() {
  return (
    <main id="main" className="flex min-h-dvh items-center justify-center px-4 py-10">
      <Unsubscribe />
    </main>
  );
}
