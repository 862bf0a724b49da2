import nodemailer, { type Transporter } from 'nodemailer';
import { config } from '@/server/config';

let transporter: { url: string; transport: Transporter } | undefined;

/**
 * This process's SMTP transport (nodemailer), for SMTP_URL: made once and kept (it pools nothing,
 * so a relay that goes away costs one failed attempt, not a stuck connection). Every exchange is
 * bounded by SMTP_TIMEOUT_MS, so a relay that hangs fails the attempt and the job retries later.
 */
export function smtpTransport(url: string): Transporter {
  if (transporter?.url !== url) {
    const timeout = config().SMTP_TIMEOUT_MS;
    transporter = {
      url,
      transport: nodemailer.createTransport({ url, connectionTimeout: timeout, greetingTimeout: timeout, socketTimeout: timeout }),
    };
  }
  return transporter.transport;
}
