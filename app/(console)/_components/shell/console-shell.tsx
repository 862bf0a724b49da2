'use client';

import { useQueryClient } from '@tanstack/react-query';
import { LogOut, Mail, Menu, UserRound, X } from 'lucide-react';
import { IntentLink } from '@/app/(console)/_components/ui/intent-link';
import { usePathname, useRouter } from 'next/navigation';
import { Dialog as DialogPrimitive } from 'radix-ui';
import { useId, useState, useSyncExternalStore, type ReactNode } from 'react';
import { cn } from '@/app/(console)/_lib/cn';
import { formatDateTime } from '@/app/(console)/_lib/dates';
import { networkPath, useMe, useNetwork, useNetworkRole, useNetworks } from '@/app/(console)/_lib/network';
import { SIGN_IN_PATH } from '@/app/(console)/_lib/providers';
import { signOutNow } from '@/app/(console)/_lib/sign-out';
import type { RouterOutputs } from '@/app/(console)/_lib/trpc';
import { Badge } from '@/app/(console)/_components/ui/badge';
import { Button } from '@/app/(console)/_components/ui/button';
import { Select } from '@/app/(console)/_components/ui/select';
import { Skeleton } from '@/app/(console)/_components/ui/skeleton';
import { TestBadge, TestNetworkNotice } from '@/app/(console)/_components/test-mode';
import { CreateNetworkDialog } from './create-network-dialog';
import { SearchButton, useSearchPalette } from './search-launcher';
import { ThemeToggle } from './theme-toggle';
import { BRAND_ICON as Brand, NAV_ITEMS } from './nav-items';

/** Tailwind's `lg`: from here up the navigation is a side bar, below it a drawer behind a menu button. */
const WIDE = '(min-width: 64rem)';

function subscribeToWidth(onChange: () => void): () => void {
  const query = window.matchMedia(WIDE);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/**
 * Whether the side bar shows (else the top bar). Only the one that shows is rendered: the other
 * was hidden by CSS but still rendered, and on a phone the side bar (navigation, switcher, key
 * panel) was a third of the work of showing a page (docs/PERFORMANCE.md, "Console (Lighthouse)").
 * The shell renders in the browser only (RequireSession), so the server's answer is never shown.
 */
function useWideScreen(): boolean {
  return useSyncExternalStore(
    subscribeToWidth,
    () => window.matchMedia(WIDE).matches,
    () => true,
  );
}

/** The frame of every network page: side navigation (a drawer below lg), network switcher, key, theme and sign-out. */
export function ConsoleShell({ networkId, children }: { networkId: string; children: ReactNode }) {
  const [menuOpen, setMenuOpen] = useState(false);
  const wide = useWideScreen();
  const search = useSearchPalette(networkId);
  // Widened with the drawer open: it is gone with the top bar, so it must not reopen on narrowing.
  if (wide && menuOpen) setMenuOpen(false);
  return (
    <div className="min-h-dvh lg:grid lg:grid-cols-[16rem_1fr]">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-white px-3 py-2 text-sm font-medium focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>

      {/* Narrow screens: top bar with a menu button opening the navigation as a drawer. */}
      {!wide && (
        <header className="sticky top-0 z-30 flex h-14 items-center gap-3 border-b border-slate-200 bg-white px-4 lg:hidden">
          <DialogPrimitive.Root open={menuOpen} onOpenChange={setMenuOpen}>
            <DialogPrimitive.Trigger asChild>
              <Button variant="ghost" size="icon" aria-label="Open menu">
                <Menu aria-hidden />
              </Button>
            </DialogPrimitive.Trigger>
            <DialogPrimitive.Portal>
              <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-slate-900/40 dark:bg-black/60" />
              <DialogPrimitive.Content
                className="fixed inset-y-0 left-0 z-50 flex w-72 max-w-[85vw] flex-col bg-white shadow-xl focus:outline-none"
                aria-describedby={undefined}
              >
                <DialogPrimitive.Title className="sr-only">Menu</DialogPrimitive.Title>
                <DialogPrimitive.Close asChild>
                  <Button variant="ghost" size="icon" aria-label="Close menu" className="absolute top-2.5 right-2.5">
                    <X aria-hidden />
                  </Button>
                </DialogPrimitive.Close>
                <SideNav networkId={networkId} onNavigate={() => setMenuOpen(false)} />
              </DialogPrimitive.Content>
            </DialogPrimitive.Portal>
          </DialogPrimitive.Root>
          <CurrentNetwork networkId={networkId} />
          <div className="ml-auto">
            <SearchButton onClick={search.show} compact />
          </div>
        </header>
      )}

      {/* Wide screens: fixed side navigation. */}
      {wide && (
        <aside className="hidden border-r border-slate-200 bg-white lg:sticky lg:top-0 lg:flex lg:h-dvh lg:flex-col">
          <SideNav networkId={networkId} onSearch={search.show} />
        </aside>
      )}
      {search.palette}

      {/* Its grid column is named: for the frame between the window widening (CSS) and React
          rendering the side bar, the page would otherwise take the side bar's 16rem column. */}
      <main id="main" tabIndex={-1} className="min-w-0 px-4 py-6 focus:outline-none sm:px-6 lg:col-start-2 lg:px-10 lg:py-8">
        <div className="mx-auto max-w-6xl">
          <TestModeNotice networkId={networkId} />
          {children}
        </div>
      </main>
    </div>
  );
}

/** The product's name, linking home; the pages outside the shell (the outbox) show it too. */
export function BrandName() {
  return (
    <IntentLink href="/console" className="flex items-center gap-2 rounded-md font-semibold text-slate-900">
      <Brand className="size-5 text-indigo-600" aria-hidden />
      <span>Ad Network Console</span>
    </IntentLink>
  );
}

/** Above every page of a test network, so a sandbox is never taken for the real thing. */
function TestModeNotice({ networkId }: { networkId: string }) {
  const network = useNetwork(networkId);
  return network?.mode === 'test' ? <TestNetworkNotice className="mb-6" /> : null;
}

/** The narrow screens' header: which network this is, and whether it is a test network (the switcher is in the drawer). */
function CurrentNetwork({ networkId }: { networkId: string }) {
  const networks = useNetworks();
  const network = useNetwork(networkId);
  const name = network?.name;
  return (
    <IntentLink href="/console" className="flex min-w-0 items-center gap-2 rounded-md text-slate-900" data-testid="header-network">
      <Brand className="size-5 shrink-0 text-indigo-600" aria-hidden />
      <span className="min-w-0">
        <span className="block text-[0.6875rem] leading-tight font-medium tracking-wide text-slate-600 uppercase">Network</span>
        <span className="block truncate text-sm leading-tight font-semibold" title={name}>
          {name ?? (networks.isPending ? 'Loading…' : networkId)}
        </span>
      </span>
      {network?.mode === 'test' && <TestBadge className="shrink-0" />}
    </IntentLink>
  );
}

/** The navigation: in the side bar (with the search button, `onSearch`) or in the drawer (`onNavigate` closes it). */
function SideNav({ networkId, onNavigate, onSearch }: { networkId: string; onNavigate?: () => void; onSearch?: () => void }) {
  const pathname = usePathname();
  const base = networkPath(networkId);
  return (
    <div className="flex h-full flex-col">
      <div className="flex h-14 items-center border-b border-slate-100 px-5">
        <BrandName />
      </div>
      <div className="border-b border-slate-100 px-4 py-4">
        <NetworkSwitcher networkId={networkId} onSwitch={onNavigate} />
      </div>
      {onSearch && (
        <div className="px-4 pt-4">
          <SearchButton onClick={onSearch} />
        </div>
      )}
      <nav aria-label="Console" className="flex-1 overflow-y-auto px-3 py-3">
        <ul className="space-y-0.5">
          {NAV_ITEMS.map(({ section, label, icon: Icon }) => {
            const href = networkPath(networkId, section);
            const current = section === '' ? pathname === base : pathname === href || pathname.startsWith(`${href}/`);
            return (
              <li key={label}>
                <IntentLink
                  href={href}
                  onClick={onNavigate}
                  aria-current={current ? 'page' : undefined}
                  className={cn(
                    'flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100 hover:text-slate-900',
                    current && 'bg-indigo-50 text-indigo-800 hover:bg-indigo-50 hover:text-indigo-900',
                  )}
                >
                  <Icon className={cn('size-4', current ? 'text-indigo-600' : 'text-slate-500')} aria-hidden />
                  {label}
                </IntentLink>
              </li>
            );
          })}
          <OperatorLinks onNavigate={onNavigate} />
        </ul>
      </nav>
      <KeyPanel networkId={networkId} onNavigate={onNavigate} />
    </div>
  );
}

/** What only a super_user key reaches, beyond any network: the outbox (the development mailbox in test mode). */
function OperatorLinks({ onNavigate }: { onNavigate?: () => void }) {
  const me = useMe();
  if (!me.data?.super_user) return null;
  return (
    <li className="mt-3 border-t border-slate-100 pt-3">
      <IntentLink
        href="/console/outbox"
        onClick={onNavigate}
        className="flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100 hover:text-slate-900"
      >
        <Mail className="size-4 text-slate-500" aria-hidden />
        Outbox
      </IntentLink>
    </li>
  );
}

function NetworkSwitcher({ networkId, onSwitch }: { networkId: string; onSwitch?: () => void }) {
  const router = useRouter();
  const pathname = usePathname();
  const networks = useNetworks();
  const me = useMe();
  const items = networks.data?.items ?? [];
  const current = useNetwork(networkId);
  // Keep the section when switching: /console/n/A/webhooks → /console/n/B/webhooks.
  const section = pathname.split('/').slice(4, 5).join('/');
  // The switcher renders twice (side bar and drawer): ids must differ.
  const id = useId();
  return (
    <div className="space-y-2">
      <div className="flex min-h-5 items-center justify-between gap-2">
        <label htmlFor={id} className="text-xs font-medium tracking-wide text-slate-500 uppercase">
          Network
        </label>
        {current?.mode === 'test' && <TestBadge />}
      </div>
      {networks.isPending ? (
        <Skeleton className="h-9 w-full" />
      ) : (
        <Select
          id={id}
          value={networkId}
          onChange={(event) => {
            onSwitch?.();
            router.push(networkPath(event.target.value, section));
          }}
        >
          {!items.some((network) => network.id === networkId) && <option value={networkId}>{networkId}</option>}
          <NetworkOptions items={items} />
        </Select>
      )}
      {networks.isError && <p className="text-xs text-red-700">Could not load your networks.</p>}
      {me.data?.super_user && (
        <>
          <CreateNetworkDialog triggerClassName="w-full" />
          <CreateNetworkDialog sandbox triggerClassName="w-full" />
        </>
      )}
    </div>
  );
}

type ListedNetwork = RouterOutputs['networks']['list']['items'][number];

/**
 * The switcher's options. A native <select> draws no badge in an option, so once there are test
 * networks they are a group of their own, named as such (and live ones another).
 */
function NetworkOptions({ items }: { items: ListedNetwork[] }) {
  const option = (network: ListedNetwork) => (
    <option key={network.id} value={network.id}>
      {network.name}
    </option>
  );
  const test = items.filter((network) => network.mode === 'test');
  if (test.length === 0) return items.map(option);
  const live = items.filter((network) => network.mode !== 'test');
  return (
    <>
      {live.length > 0 && <optgroup label="Live networks">{live.map(option)}</optgroup>}
      <optgroup label="Test networks (sandboxes)">{test.map(option)}</optgroup>
    </>
  );
}

/** Which credential the tab is signed in with: a session (until when), or the key by name. */
function keyLine(me: { session: boolean; expires_at: string | null; key_name: string; owner: { type: string } }): string {
  if (me.session) return `Session until ${formatDateTime(me.expires_at)}`;
  return `${me.owner.type === 'service_account' ? 'Service account · ' : ''}key “${me.key_name}”`;
}

/** Who is signed in, a link to their account (passkeys), the theme and "Sign out": the foot of the navigation. */
function KeyPanel({ networkId, onNavigate }: { networkId: string; onNavigate?: () => void }) {
  const me = useMe();
  const role = useNetworkRole(networkId);
  const router = useRouter();
  const pathname = usePathname();
  const queryClient = useQueryClient();
  const account = networkPath(networkId, 'account');
  return (
    <div className="border-t border-slate-100 px-4 py-4">
      {me.data ? (
        <div className="mb-3 min-w-0" data-testid="signed-in-as">
          <p className="truncate text-sm font-medium text-slate-900" title={me.data.owner.name}>
            {me.data.owner.name}
          </p>
          <p className="truncate text-xs text-slate-600" title={keyLine(me.data)}>
            {keyLine(me.data)}
          </p>
          <div className="mt-1 flex flex-wrap gap-1.5">
            {me.data.super_user && <Badge tone="accent">super user</Badge>}
            {role && !me.data.super_user && <Badge tone={role === 'administrator' ? 'accent' : 'neutral'}>{role.replace('_', ' ')}</Badge>}
          </div>
        </div>
      ) : (
        <Skeleton className="mb-3 h-9 w-full" />
      )}
      <IntentLink
        href={account}
        onClick={onNavigate}
        aria-current={pathname === account ? 'page' : undefined}
        className={cn(
          '-mx-2 mb-2 flex items-center gap-2 rounded-md px-2 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-100 hover:text-slate-900',
          pathname === account && 'bg-indigo-50 text-indigo-800 hover:bg-indigo-50 hover:text-indigo-900',
        )}
      >
        <UserRound className={cn('size-4', pathname === account ? 'text-indigo-600' : 'text-slate-500')} aria-hidden />
        Your account
      </IntentLink>
      <div className="flex items-center gap-2">
        <Button
          variant="secondary"
          size="sm"
          className="min-w-0 flex-1"
          onClick={async () => {
            await signOutNow({ session: me.data?.session ?? false });
            queryClient.clear();
            router.replace(SIGN_IN_PATH);
          }}
        >
          <LogOut aria-hidden /> Sign out
        </Button>
        <ThemeToggle />
      </div>
    </div>
  );
}
