/** The User-Agent of webhook deliveries (documented in the API schemas, so kept free of server-only code). */
export const USER_AGENT = 'AdNetworkService-Webhooks/1.0';
