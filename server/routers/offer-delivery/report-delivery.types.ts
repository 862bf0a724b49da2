import { z } from 'zod';
import { networkParam } from '@/server/routers/shared.types';
import { offerIdParam } from '@/server/routers/offers/offer.types';
import { dayField, deliveryReportSchema, deliverySourceField, reportedImpressionsField } from './offer-delivery.types';

/** The most days one request reports (a CSV body is this many rows at most). */
export const MAX_REPORTS_PER_REQUEST = 1_000;

const reportRow = z
  .strictObject({ date: dayField, impressions: reportedImpressionsField, source: deliverySourceField })
  .meta({ id: 'DeliveryReportInput' });

export const reportDeliveryInput = z
  .strictObject({
    ...networkParam,
    ...offerIdParam,
    date: dayField.optional().meta({ description: 'One report: the UTC day (with `impressions` and `source`).' }),
    impressions: reportedImpressionsField.optional(),
    source: deliverySourceField.optional(),
    reports: z
      .array(reportRow)
      .min(1)
      .max(MAX_REPORTS_PER_REQUEST)
      .optional()
      .meta({
        description: `Many days at once (instead of \`date\`, \`impressions\`, \`source\`), at most ${MAX_REPORTS_PER_REQUEST}. A \`text/csv\` body is this list: a row per report, columns date, impressions, source (a header line naming them may come first).`,
      }),
  })
  .refine((v) => v.reports === undefined || (v.date === undefined && v.impressions === undefined && v.source === undefined), {
    message: 'Send either date, impressions and source, or reports — not both.',
    path: ['reports'],
  })
  .refine((v) => v.reports !== undefined || (v.date !== undefined && v.impressions !== undefined && v.source !== undefined), {
    message: 'A report needs date, impressions and source.',
    path: ['date'],
  });

export const reportDeliveryOutput = z
  .object({
    offer_id: z.string(),
    reports: z.array(deliveryReportSchema).meta({ description: 'The reports this request made or replaced, by date and source.' }),
  })
  .meta({ id: 'DeliveryReportsRecorded' });
