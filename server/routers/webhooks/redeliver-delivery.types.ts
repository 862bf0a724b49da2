import { z } from 'zod';
import { deliveryParams } from './delivery.types';

export const redeliverDeliveryInput = z.strictObject({ ...deliveryParams });
