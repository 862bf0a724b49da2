import { router } from '@/server/trpc';
import { deliveryReportRoute } from './delivery-report';

export const reportsRouter = router({
  delivery: deliveryReportRoute,
});
