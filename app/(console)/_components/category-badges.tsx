import { Badge } from '@/app/(console)/_components/ui/badge';
import { categoryLabel, type AdTaxonomy } from '@/app/(console)/_lib/ad-categories';

/** Ad categories by name (an advertiser's, a podcast's exclusions), each with the ones above it in its tooltip. */
export function CategoryBadges({ ids, label, taxonomy }: { ids: string[]; label: string; taxonomy: AdTaxonomy | undefined }) {
  return (
    <ul aria-label={label} className="flex max-w-64 flex-wrap gap-1">
      {ids.map((id) => (
        <li key={id}>
          <Badge tone="accent" title={categoryLabel(id, taxonomy)} className="rounded-md whitespace-normal">
            {taxonomy?.byId.get(id)?.name ?? id}
          </Badge>
        </li>
      ))}
    </ul>
  );
}
