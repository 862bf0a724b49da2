/** What a handler may say about the HTTP response, whatever the transport. */
export interface HttpOut {
  status?: number;
  headers: Record<string, string>;
  /** A non-JSON body (audio): the REST layer sends these bytes instead of the procedure's JSON output. */
  raw?: { body: Buffer; contentType: string };
}
