import { z } from 'zod';
import { flightParams } from './flight.types';

export const deleteFlightInput = z.strictObject({ ...flightParams });
