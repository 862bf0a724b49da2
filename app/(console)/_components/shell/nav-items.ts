import {
  Activity,
  ScrollText,
  Settings,
  Building2,
  ClipboardCheck,
  Clapperboard,
  FileAudio,
  Handshake,
  KeyRound,
  KeySquare,
  LayoutDashboard,
  Megaphone,
  Mic,
  Bot,
  UserRound,
  Users,
  Webhook,
  type LucideIcon,
} from 'lucide-react';

export interface NavItem {
  /** Path under /console/n/[networkId]/ ('' is the overview). */
  section: string;
  label: string;
  icon: LucideIcon;
  /** Other words the command palette finds the page by (what is on it). */
  keywords?: string[];
}

/** The side navigation, in order. Each section is a folder under app/(console)/console/n/[networkId]/. */
export const NAV_ITEMS: NavItem[] = [
  { section: '', label: 'Overview', icon: LayoutDashboard },
  { section: 'members', label: 'Members', icon: Users },
  { section: 'api-keys', label: 'API keys', icon: KeyRound },
  { section: 'service-accounts', label: 'Service accounts', icon: Bot },
  { section: 'webhooks', label: 'Webhooks', icon: Webhook },
  { section: 'advertisers', label: 'Advertisers', icon: Building2 },
  { section: 'campaigns', label: 'Campaigns', icon: Megaphone },
  { section: 'podcasts', label: 'Podcasts', icon: Mic },
  { section: 'offers', label: 'Offers', icon: Handshake },
  { section: 'creatives', label: 'Creatives', icon: FileAudio },
  { section: 'review', label: 'Review queue', icon: ClipboardCheck, keywords: ['approve creatives', 'request changes', 'pending approval'] },
  { section: 'events', label: 'Events', icon: Activity },
  { section: 'audit-log', label: 'Audit log', icon: ScrollText },
  { section: 'settings', label: 'Settings', icon: Settings, keywords: ['network name', 'rename network', 'API key lifetime'] },
  { section: 'my-keys', label: 'My keys', icon: KeySquare },
];

/** "Your account", at the foot of the navigation (console-shell.tsx) rather than in its list; the command palette lists it after NAV_ITEMS. */
export const ACCOUNT_ITEM: NavItem = { section: 'account', label: 'Your account', icon: UserRound, keywords: ['passkeys', 'email notifications'] };

export const BRAND_ICON = Clapperboard;
