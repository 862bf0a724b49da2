import { clusterBinaries } from '@/scripts/cluster/binaries';
import { provideTestPostgres } from '@/tests/support/test-postgres';

/**
 * `npm run test:cluster`: the Postgres the run creates its databases on (the local server, or an
 * embedded one), and HAProxy and PgBouncer, which these tests need and do not install.
 */
export default async function setup() {
  const binaries = clusterBinaries();
  if ('missing' in binaries) throw new Error(binaries.missing);
  const postgres = await provideTestPostgres();
  return () => postgres.stop();
}
