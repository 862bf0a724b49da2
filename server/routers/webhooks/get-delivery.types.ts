import { z } from 'zod';
import { deliveryParams } from './delivery.types';

export const getDeliveryInput = z.strictObject({ ...deliveryParams });
