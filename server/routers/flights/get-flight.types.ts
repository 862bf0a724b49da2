import { z } from 'zod';
import { flightParams } from './flight.types';

export const getFlightInput = z.strictObject({ ...flightParams });
