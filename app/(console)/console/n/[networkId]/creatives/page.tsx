import { CreativesPage } from './_components/creatives-page';

export const metadata = { title: 'Creatives' };

export default function Page() {
  return <CreativesPage />;
}
