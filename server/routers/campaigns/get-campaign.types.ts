import { z } from 'zod';
import { campaignParams } from './campaign.types';

export const getCampaignInput = z.strictObject({ ...campaignParams });
