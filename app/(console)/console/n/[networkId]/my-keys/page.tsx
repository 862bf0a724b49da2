import { MyKeysView } from './_components/my-keys-view';

export const metadata = { title: 'My keys' };

export default function Page() {
  return <MyKeysView />;
}
