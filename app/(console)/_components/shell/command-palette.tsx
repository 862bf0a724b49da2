'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Command } from 'cmdk';
import { Building2, KeyRound, Megaphone, Mic, Network, Search, Webhook, type LucideIcon } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { Dialog as DialogPrimitive } from 'radix-ui';
import { useDeferredValue, useState, type ReactNode } from 'react';
import type { SEARCH_RESULT_TYPES } from '@/server/routers/search/search.types';
import { overlayClasses } from '@/app/(console)/_components/ui/dialog';
import { TestBadge } from '@/app/(console)/_components/test-mode';
import { networkPath, useCanAdminister, useNetworks } from '@/app/(console)/_lib/network';
import { objectLink } from '@/app/(console)/_lib/object-links';
import { useTRPC } from '@/app/(console)/_lib/trpc';
import { ACCOUNT_ITEM, NAV_ITEMS } from './nav-items';

/*
 * The command palette (Ctrl-K / ⌘K): pages of the console, the networks the key can see
 * (`GET /networks?q=`), and the network's campaigns, podcasts, advertisers, keys and webhooks by
 * name or id — those from `GET /networks/{n}/search`, which finds only what the key may read. Loaded on first use
 * (search-launcher.tsx), so no page's first load carries it.
 */

type ResultType = (typeof SEARCH_RESULT_TYPES)[number];

const GROUPS: Record<ResultType, { heading: string; icon: LucideIcon }> = {
  campaign: { heading: 'Campaigns', icon: Megaphone },
  podcast: { heading: 'Podcasts', icon: Mic },
  advertiser: { heading: 'Advertisers', icon: Building2 },
  api_key: { heading: 'API keys', icon: KeyRound },
  webhook: { heading: 'Webhooks', icon: Webhook },
};

/** The pages the palette offers: the navigation's, then "Your account" from its foot. */
const PAGES = [...NAV_ITEMS, ACCOUNT_ITEM];

/** `text` appears in one of `fields`, ignoring case. */
const mentions = (text: string, ...fields: string[]) => fields.some((field) => field.toLowerCase().includes(text.toLowerCase()));

export default function CommandPalette({
  networkId,
  open,
  onOpenChange,
}: {
  networkId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const networks = useNetworks();
  const canAdminister = useCanAdminister(networkId);
  const [text, setText] = useState('');
  const [selected, setSelected] = useState('');
  const q = useDeferredValue(text.trim());
  const results = useQuery(
    trpc.search.network.queryOptions({ networkId, q }, { enabled: open && q.length > 0, placeholderData: keepPreviousData, staleTime: 10_000 }),
  );
  // Networks from the server (`GET /networks?q=`): a super_user may see more than the shell loaded.
  const foundNetworks = useQuery(trpc.networks.list.queryOptions({ q, limit: 5 }, { enabled: open && q.length > 0, staleTime: 10_000 }));

  function go(href: string) {
    onOpenChange(false);
    setText('');
    router.push(href);
  }

  const pages = PAGES.filter(({ label, section, keywords = [] }) => !q || mentions(q, label, section, ...keywords));
  // Until the server answers, the loaded networks that match: the first keystrokes show something at once.
  const otherNetworks = !q ? [] : (foundNetworks.data?.items ?? (networks.data?.items ?? []).filter((n) => mentions(q, n.name, n.id)).slice(0, 5));
  const hits = q && results.data ? results.data.items : [];
  const byType = (type: ResultType) => hits.filter((hit) => hit.type === type);
  // The highlighted row: results arrive after typing, so keep it on a row that is shown, the first by default (Enter opens it).
  const shown = [
    ...(Object.keys(GROUPS) as ResultType[]).flatMap((type) => byType(type).map((hit) => `${type}:${hit.id}`)),
    ...otherNetworks.map((n) => `network:${n.id}`),
    ...pages.map(({ section }) => `page:${section}`),
  ];
  const active = selected && shown.includes(selected) ? selected : (shown[0] ?? '');
  const searching = q.length > 0 && (results.isFetching || foundNetworks.isFetching || q !== text.trim());
  const nothing = q.length > 0 && !searching && pages.length === 0 && otherNetworks.length === 0 && hits.length === 0;

  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className={overlayClasses} />
        <DialogPrimitive.Content
          aria-describedby={undefined}
          className="fixed top-[10dvh] left-1/2 z-50 w-[calc(100vw-2rem)] max-w-xl -translate-x-1/2 overflow-hidden rounded-lg border border-slate-200 bg-white shadow-xl focus:outline-none"
        >
          <DialogPrimitive.Title className="sr-only">Search the console</DialogPrimitive.Title>
          <Command shouldFilter={false} label="Search the console" loop value={active} onValueChange={setSelected}>
            <div className="flex items-center gap-2 border-b border-slate-200 px-4">
              <Search className="size-4 shrink-0 text-slate-500" aria-hidden />
              <Command.Input
                value={text}
                onValueChange={setText}
                placeholder={canAdminister ? 'Campaigns, podcasts, advertisers, keys, webhooks, pages…' : 'Campaigns, podcasts, advertisers, pages…'}
                className="h-12 w-full bg-transparent text-sm text-slate-900 placeholder:text-slate-500 focus:outline-none"
              />
            </div>
            <Command.List className="max-h-[min(60dvh,26rem)] overflow-y-auto p-2" aria-busy={searching}>
              {nothing && <Command.Empty className="px-3 py-6 text-center text-sm text-slate-600">Nothing matches “{q}”.</Command.Empty>}
              {results.error && (
                <p role="alert" className="px-3 py-2 text-sm text-red-700">
                  Search failed: {results.error.message}
                </p>
              )}
              {(Object.keys(GROUPS) as ResultType[]).map((type) => {
                const group = byType(type);
                if (group.length === 0) return null;
                const { heading, icon: Icon } = GROUPS[type];
                return (
                  <Command.Group key={type} heading={heading} className={groupClasses}>
                    {group.map((hit) => (
                      <Item
                        key={hit.id}
                        value={`${type}:${hit.id}`}
                        onSelect={() => go(objectLink(networkId, hit.id)?.href ?? networkPath(networkId))}
                      >
                        <Icon className="size-4 shrink-0 text-slate-500" aria-hidden />
                        <span className="min-w-0 flex-1 truncate">{hit.name}</span>
                        {hit.detail && <span className="max-w-[45%] truncate text-xs text-slate-600">{hit.detail}</span>}
                      </Item>
                    ))}
                  </Command.Group>
                );
              })}
              {otherNetworks.length > 0 && (
                <Command.Group heading="Networks" className={groupClasses}>
                  {otherNetworks.map((n) => (
                    <Item key={n.id} value={`network:${n.id}`} onSelect={() => go(networkPath(n.id))}>
                      <Network className="size-4 shrink-0 text-slate-500" aria-hidden />
                      <span className="min-w-0 flex-1 truncate">{n.name}</span>
                      {n.mode === 'test' && <TestBadge className="shrink-0" />}
                      {n.id === networkId && <span className="text-xs text-slate-600">This network</span>}
                    </Item>
                  ))}
                </Command.Group>
              )}
              {pages.length > 0 && (
                <Command.Group heading="Pages" className={groupClasses}>
                  {pages.map(({ section, label, icon: Icon }) => (
                    <Item key={label} value={`page:${section}`} onSelect={() => go(networkPath(networkId, section))}>
                      <Icon className="size-4 shrink-0 text-slate-500" aria-hidden />
                      <span className="flex-1">{label}</span>
                    </Item>
                  ))}
                </Command.Group>
              )}
            </Command.List>
            <p className="border-t border-slate-200 px-4 py-2 text-xs text-slate-600">
              Search by name or paste an id. ↑↓ to move, Enter to open, Esc to close.
            </p>
          </Command>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}

const groupClasses =
  '[&_[cmdk-group-heading]]:px-3 [&_[cmdk-group-heading]]:pt-2 [&_[cmdk-group-heading]]:pb-1 [&_[cmdk-group-heading]]:text-xs [&_[cmdk-group-heading]]:font-medium [&_[cmdk-group-heading]]:text-slate-600';

function Item({ value, onSelect, children }: { value: string; onSelect: () => void; children: ReactNode }) {
  return (
    <Command.Item
      value={value}
      onSelect={onSelect}
      className="flex cursor-pointer items-center gap-3 rounded-md px-3 py-2 text-sm text-slate-900 data-[selected=true]:bg-indigo-50 data-[selected=true]:text-indigo-900"
    >
      {children}
    </Command.Item>
  );
}
