import { router } from '../../trpc';
import { createPodcast } from './create-podcast';
import { getPodcast } from './get-podcast';
import { listPodcasts } from './list-podcasts';
import { optInPodcast } from './opt-in-podcast';
import { optOutPodcast } from './opt-out-podcast';
import { updatePodcast } from './update-podcast';

export const podcastsRouter = router({
  list: listPodcasts,
  create: createPodcast,
  get: getPodcast,
  update: updatePodcast,
  optIn: optInPodcast,
  optOut: optOutPodcast,
});
