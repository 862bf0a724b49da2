import { router } from '@/server/trpc';
import { createPodcastRoute } from './create-podcast';
import { getPodcastRoute } from './get-podcast';
import { listPodcastsRoute } from './list-podcasts';
import { optInPodcastRoute } from './opt-in-podcast';
import { optOutPodcastRoute } from './opt-out-podcast';
import { updatePodcastRoute } from './update-podcast';

export const podcastsRouter = router({
  list: listPodcastsRoute,
  create: createPodcastRoute,
  get: getPodcastRoute,
  update: updatePodcastRoute,
  optIn: optInPodcastRoute,
  optOut: optOutPodcastRoute,
});
