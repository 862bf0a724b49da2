'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, Play } from 'lucide-react';
import { useRef, useState, type ReactNode } from 'react';
import { CampaignLines, RequiredLines } from '@/app/(console)/_components/campaign-lines';
import { LinkPage, useLink } from '@/app/(console)/_components/link-page';
import { useBlobUrl } from '@/app/(console)/_components/ui/authorized-audio';
import { Button } from '@/app/(console)/_components/ui/button';
import { Form, FormError, FormField, useZodForm } from '@/app/(console)/_components/ui/form';
import { Textarea } from '@/app/(console)/_components/ui/input';
import { cn } from '@/app/(console)/_lib/cn';
import { CREATIVE_REVIEW_TOKEN_PATTERN } from '@/domain/creative-review';
import { requestCreativeChangesFields } from '@/server/routers/creatives/request-creative-changes.types';
import { changedScript, placeScriptRefusal } from '@/app/(console)/_lib/creative-review';
import { formatDateTime } from '@/app/(console)/_lib/dates';
import { problemOf, problemSentence } from '@/app/(console)/_lib/problem';
import { createOneOffClient, type RouterOutputs } from '@/app/(console)/_lib/trpc';

type ReviewView = RouterOutputs['creativeReviews']['current'];
type Review = NonNullable<ReviewView['creative']['review']>;

const NOT_VALID =
  'This review link is not valid: it has expired, a newer version of the ad replaced it, or it was never sent. When a new version is ready, you get a new link by email.';

/** Where the link's audio is served (the token is its credential, sent as a header, never in the URL). */
const AUDIO_PATH = '/v1/creative-reviews/current/audio';

/** A text box a phone does not zoom into (16 px type below sm). */
const phoneText = 'text-base sm:text-sm';

/**
 * The host's review page, reached from the emailed link: the ad made in their voice (audio and
 * script), the campaign's talking points and required lines, the versions so far, and Approve /
 * Request changes (a comment, and a new script if they want one). The token is the credential
 * (`createOneOffClient`, no API key) and opens this one revision. Nothing is decided by opening the
 * page (mail scanners open links): only the buttons decide.
 */
export function CreativeReview() {
  const queryClient = useQueryClient();
  const heading = useRef<HTMLHeadingElement>(null);
  const link = useLink({
    name: 'creative-review',
    pattern: CREATIVE_REVIEW_TOKEN_PATTERN,
    read: (token) => createOneOffClient(token).creativeReviews.current.query({}),
  });

  /** A decision taken here: the revision now shows it, at once (the API answered with the review). */
  const decided = (status: 'approved' | 'changes_requested', decision: Review) => {
    queryClient.setQueryData<ReviewView>(
      link.queryKey,
      (view) =>
        view && {
          ...view,
          creative: { ...view.creative, status, review: decision },
          revisions: view.revisions.map((r) => (r.revision === view.creative.revision ? { ...r, status, review: decision } : r)),
        },
    );
    heading.current?.focus();
  };

  return (
    <LinkPage
      link={link}
      title={(view) => (view ? `Your ad for ${view.podcast_name}` : 'Review your ad')}
      notValid={NOT_VALID}
      reading="read the ad to review"
      heading={heading}
      wide
    >
      {(view) => <ReviewRequest view={view} token={link.token!} onDecided={decided} onStale={() => void link.query.refetch()} />}
    </LinkPage>
  );
}

function ReviewRequest({
  view,
  token,
  onDecided,
  onStale,
}: {
  view: ReviewView;
  token: string;
  onDecided: (status: 'approved' | 'changes_requested', review: Review) => void;
  onStale: () => void;
}) {
  const { creative, campaign } = view;
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [changing, setChanging] = useState(false);
  const pending = creative.status === 'pending_approval';

  async function approve() {
    setBusy(true);
    setFailure(null);
    try {
      onDecided('approved', await createOneOffClient(token).creativeReviews.approve.mutate({}));
    } catch (error) {
      const problem = problemOf(error);
      // Decided meanwhile (an administrator, another tab): show what it is now, and say so.
      if (problem.status === 409) onStale();
      setFailure(problem.status === 404 ? NOT_VALID : problemSentence(error, 'approve the ad'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <p className="mt-3 text-sm text-slate-700">
        <strong>{view.network_name}</strong> made this ad for <strong>{campaign.advertiser_name}</strong> (campaign “{campaign.name}”) with a
        synthetic copy of your voice, {view.host_name}. Listen to it and read the script, then approve it or ask for changes. Nothing is delivered
        before it is approved.
      </p>

      <ReviewState view={view} />

      <section aria-labelledby="listen-heading" className="mt-5">
        <h2 id="listen-heading" className="text-base font-semibold text-slate-900">
          Version {creative.revision}
        </h2>
        {creative.status === 'pending_approval' || creative.status === 'approved' ? (
          <ReviewAudio token={token} label={`Your ad for ${view.podcast_name}, version ${creative.revision}`} />
        ) : (
          <p className="mt-1 text-sm text-slate-600">Its audio is no longer offered here.</p>
        )}
        <h3 className="mt-4 text-sm font-semibold text-slate-900">Script</h3>
        <p
          className="mt-1 rounded-md border border-slate-200 px-4 py-3 text-sm leading-relaxed whitespace-pre-wrap text-slate-800"
          data-testid="review-script"
        >
          {creative.script}
        </p>
      </section>

      <CampaignLines talkingPoints={campaign.talking_points} requiredLines={campaign.required_lines} headingLevel={2} className="mt-5" />

      {failure && (
        <p role="alert" className="mt-4 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {failure}
        </p>
      )}

      {pending && !changing && (
        <div className="mt-6 flex flex-col gap-2 sm:flex-row-reverse">
          <Button size="lg" className="w-full sm:w-auto" loading={busy} onClick={() => void approve()}>
            Approve
          </Button>
          <Button size="lg" variant="secondary" className="w-full sm:w-auto" disabled={busy} onClick={() => setChanging(true)}>
            Request changes
          </Button>
        </div>
      )}
      {pending && changing && (
        <RequestChangesForm
          view={view}
          token={token}
          onCancel={() => setChanging(false)}
          onDone={(review) => {
            setChanging(false);
            onDecided('changes_requested', review);
          }}
          onStale={onStale}
        />
      )}

      <Versions view={view} />
    </>
  );
}

/** Where the review stands, in a sentence; announced when it changes. */
function ReviewState({ view }: { view: ReviewView }) {
  const { creative } = view;
  const by = creative.review?.reviewed_by === 'administrator' ? `${view.network_name}, on your behalf,` : 'You';
  const state: { tone: string; text: ReactNode; done?: true } = (() => {
    switch (creative.status) {
      case 'pending_approval':
        return {
          tone: 'bg-indigo-50 text-slate-800',
          text: `Waiting for your review. This link works until ${formatDateTime(view.link_expires_at)}.`,
        };
      case 'approved':
        return {
          tone: 'bg-emerald-50 text-emerald-800',
          text: `${by} approved this ad on ${formatDateTime(creative.review?.reviewed_at ?? null)}. It can now run on ${view.podcast_name}.`,
          done: true,
        };
      case 'changes_requested':
        return {
          tone: 'bg-amber-50 text-amber-900',
          text: (
            <>
              {by} asked for changes on {formatDateTime(creative.review?.reviewed_at ?? null)}. Version {creative.revision + 1} is being made: you
              will get a new link by email when it is ready.
              {creative.review?.comment && <span className="mt-1 block">The request: “{creative.review.comment}”</span>}
            </>
          ),
        };
      default:
        return { tone: 'bg-slate-100 text-slate-800', text: 'This version is no longer waiting for a review.' };
    }
  })();
  return (
    <p role="status" data-testid="review-state" className={`mt-4 flex items-start gap-2 rounded-md px-3 py-2 text-sm ${state.tone}`}>
      {state.done && <CheckCircle2 className="mt-0.5 size-4 shrink-0" aria-hidden />}
      <span>{state.text}</span>
    </p>
  );
}

/**
 * The revision's audio: fetched with the link's token when Play is pressed (an <audio src> cannot
 * send a header, and the token never goes into a URL), then played from a Blob URL.
 */
function ReviewAudio({ token, label }: { token: string; label: string }) {
  const [playing, setPlaying] = useState(false);
  const audio = useQuery({
    queryKey: ['creative-review-audio', token],
    queryFn: async ({ signal }) => {
      const response = await fetch(AUDIO_PATH, { headers: { Authorization: `Bearer ${token}` }, signal, cache: 'no-store' });
      if (response.status === 404) throw new Error(NOT_VALID);
      if (!response.ok) throw new Error(`Could not load the audio (${response.status}). Try again in a minute.`);
      return response.blob();
    },
    enabled: playing,
    retry: false,
    staleTime: Infinity,
  });
  const src = useBlobUrl(playing ? audio.data : undefined);
  if (audio.error) {
    return (
      <div role="alert" className="mt-2 flex flex-wrap items-center gap-2 text-sm text-red-800">
        <span>{audio.error.message}</span>
        <Button variant="secondary" size="sm" onClick={() => void audio.refetch()}>
          Retry
        </Button>
      </div>
    );
  }
  return (
    <div className="mt-2">
      {src ? (
        <audio controls autoPlay preload="metadata" src={src} aria-label={label} className="h-12 w-full" />
      ) : (
        <Button
          size="lg"
          variant="secondary"
          className="w-full sm:w-auto"
          loading={playing}
          onClick={() => setPlaying(true)}
          aria-label={`Play ${label}`}
        >
          <Play aria-hidden /> Play the ad
        </Button>
      )}
    </div>
  );
}

function RequestChangesForm({
  view,
  token,
  onCancel,
  onDone,
  onStale,
}: {
  view: ReviewView;
  token: string;
  onCancel: () => void;
  onDone: (review: Review) => void;
  onStale: () => void;
}) {
  const { creative, campaign } = view;
  const form = useZodForm(requestCreativeChangesFields, { defaultValues: { comment: '', script: creative.script } });
  const script = form.watch('script') ?? '';
  return (
    <section aria-labelledby="changes-heading" className="mt-6 rounded-lg border border-slate-200 px-4 py-4 sm:px-5">
      <h2 id="changes-heading" className="text-base font-semibold text-slate-900">
        Request changes
      </h2>
      <Form
        form={form}
        className="mt-3"
        onSubmit={async (values) => {
          try {
            onDone(
              await createOneOffClient(token).creativeReviews.requestChanges.mutate({
                comment: values.comment,
                script: changedScript(values.script, creative.script),
              }),
            );
          } catch (error) {
            if (placeScriptRefusal(error, (message) => form.setError('script', { type: 'server', message }))) return;
            const status = problemOf(error).status;
            if (status === 404) {
              form.setError('root.server', { type: 'server', message: NOT_VALID });
              return;
            }
            if (status === 409) onStale();
            throw error;
          }
        }}
      >
        <FormField form={form} name="comment" label="What should change" description="Sent to the network with your request.">
          {(field) => <Textarea rows={3} className={phoneText} {...field} />}
        </FormField>
        <FormField
          form={form}
          name="script"
          label="Script"
          description="Optional: edit it to have the next version read a new script; leave it as it is to keep this one."
        >
          {(field) => <Textarea rows={8} className={cn(phoneText, 'leading-relaxed')} {...field} />}
        </FormField>
        {campaign.required_lines.length > 0 && <RequiredLines lines={campaign.required_lines} script={script} />}
        <FormError form={form} />
        <div className="flex flex-col gap-2 sm:flex-row-reverse">
          <Button type="submit" size="lg" className="w-full sm:w-auto" loading={form.formState.isSubmitting}>
            Send request
          </Button>
          <Button type="button" size="lg" variant="secondary" className="w-full sm:w-auto" onClick={onCancel}>
            Cancel
          </Button>
        </div>
      </Form>
    </section>
  );
}

/** Every version so far, oldest first: what each read, and who decided what, when. */
function Versions({ view }: { view: ReviewView }) {
  if (view.revisions.length < 2) return null;
  return (
    <section aria-labelledby="versions-heading" className="mt-6">
      <h2 id="versions-heading" className="text-base font-semibold text-slate-900">
        Versions
      </h2>
      <ol className="mt-2 space-y-3 border-l-2 border-slate-200 pl-4" data-testid="review-versions">
        {view.revisions.map((r) => (
          <li key={r.revision} className="text-sm" aria-current={r.revision === view.creative.revision ? 'true' : undefined}>
            <p className="font-medium text-slate-900">
              Version {r.revision}
              {r.revision === view.creative.revision && ' (this one)'}
            </p>
            <p className="text-xs text-slate-600">Made {formatDateTime(r.created_at)}</p>
            {r.review && (
              <p className="mt-1 text-slate-800">
                {r.status === 'changes_requested' ? 'Changes asked' : 'Approved'} by{' '}
                {r.review.reviewed_by === 'host' ? 'you' : `${view.network_name}, on your behalf`}, {formatDateTime(r.review.reviewed_at)}
                {r.review.comment && <span className="block text-slate-700">“{r.review.comment}”</span>}
              </p>
            )}
            {r.revision !== view.creative.revision && (
              <details className="mt-1">
                <summary className="cursor-pointer text-xs text-slate-600 hover:text-slate-900">Script of version {r.revision}</summary>
                <p className="mt-1 whitespace-pre-wrap text-slate-800">{r.script}</p>
              </details>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
