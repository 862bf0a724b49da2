'use client';

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DetailItem, DetailList, DetailSheet, Loaded } from '@/app/(console)/_components/detail-sheet';
import { StatusBadge } from '@/app/(console)/_components/ui/badge';
import { DateTime } from '@/app/(console)/_components/ui/date-time';
import { useTRPC } from '@/app/(console)/_lib/trpc';

/** One email (`/console/outbox?email=eml_…`): where it went, and, while the service keeps it, what it says. */
export function EmailSheet({ emailId, onClose }: { emailId: string | null; onClose: () => void }) {
  return (
    <DetailSheet objectId={emailId} onClose={onClose} title="Email">
      {(id) => <EmailDetail emailId={id} />}
    </DetailSheet>
  );
}

function EmailDetail({ emailId }: { emailId: string }) {
  const trpc = useTRPC();
  const email = useQuery(trpc.emails.get.queryOptions({ emailId }));
  return (
    <Loaded query={email}>
      {(e) => (
        <div className="space-y-6">
          <DetailList>
            <DetailItem label="Subject" wide>
              {e.subject}
            </DetailItem>
            <DetailItem label="To">{e.to}</DetailItem>
            <DetailItem label="Status">
              <StatusBadge status={e.status} /> {e.sent_via === 'mailbox' ? '(development mailbox)' : e.sent_via === 'smtp' ? '(SMTP)' : ''}
            </DetailItem>
            <DetailItem label="Queued">
              <DateTime value={e.created_at} />
            </DetailItem>
            <DetailItem label="Sent">{e.sent_at ? <DateTime value={e.sent_at} /> : '—'}</DetailItem>
            {e.last_error && (
              <DetailItem label={`Last error (attempt ${e.attempts})`} wide>
                <span className="font-mono text-xs">{e.last_error}</span>
              </DetailItem>
            )}
            {e.link && (
              <DetailItem label="Link" wide>
                <a href={e.link} className="font-mono text-xs break-all text-indigo-700 underline underline-offset-4">
                  {e.link}
                </a>
              </DetailItem>
            )}
          </DetailList>
          {e.text === null ? (
            <p className="text-sm text-slate-600">The message is no longer kept: live mode drops it once it is sent.</p>
          ) : (
            <section aria-labelledby="email-text">
              <h3 id="email-text" className="text-sm font-semibold text-slate-900">
                Message
              </h3>
              <pre className="mt-2 rounded-md bg-slate-100 p-3 font-sans text-sm break-words whitespace-pre-wrap text-slate-900">{e.text}</pre>
            </section>
          )}
          {e.html !== null && <HtmlPart html={e.html} />}
        </div>
      )}
    </Loaded>
  );
}

/** The HTML part, rendered only on request, in an empty sandbox: it runs no script and reaches neither this page nor its storage. */
function HtmlPart({ html }: { html: string }) {
  const [shown, setShown] = useState(false);
  return (
    <details className="text-sm" onToggle={(event) => setShown(event.currentTarget.open)}>
      <summary className="cursor-pointer font-semibold text-slate-900">As it looks in a mail client (HTML)</summary>
      {shown && (
        <iframe sandbox="" srcDoc={html} title="The email's HTML part" className="mt-2 h-96 w-full rounded-md border border-slate-200 bg-white" />
      )}
    </details>
  );
}
