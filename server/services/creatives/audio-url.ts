import { config } from '../../config';
import type { CreativeRow } from './complete-creative';

// No database code here: the API schemas that present creatives are imported by the console too.
/** Where the audio of a creative is served (the REST path; no storage key). */
export function audioUrl(creative: Pick<CreativeRow, 'networkId' | 'id'>): string {
  return `${config().publicUrl}/v1/networks/${creative.networkId}/creatives/${creative.id}/audio`;
}
