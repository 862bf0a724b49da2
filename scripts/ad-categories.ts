/**
 * Regenerates domain/ad-categories/ad-product-taxonomy-2.0.json — the data behind GET /v1/ad-categories
 * and brand safety — from the IAB Tech Lab's own TSV, so what ships can be checked against its source:
 *
 *   curl -sLo apt.tsv "https://raw.githubusercontent.com/InteractiveAdvertisingBureau/Taxonomies/b7acdcaa30d4c389d0fe022e93865ca59a4299e6/Ad%20Product%20Taxonomies/Ad%20Product%20Taxonomy%202.0.tsv"
 *   node --import tsx scripts/ad-categories.ts apt.tsv
 *
 * The file's SHA-256 is recorded, and the run refuses a TSV with other bytes unless `--commit <sha>` names
 * the commit it came from (a newer release of the same version). What the conversion changes is listed
 * in domain/ad-categories/NOTICE.md (CC BY 3.0 asks that changes be indicated): names trimmed, the
 * Tier columns dropped (each item's `path` is derived from the parents instead), and a parent taken
 * from the Tier columns where the Parent ID column contradicts them (each such row is listed in the
 * JSON's `corrections`, with the id the source gave).
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SOURCE = {
  repository: 'https://github.com/InteractiveAdvertisingBureau/Taxonomies',
  path: 'Ad Product Taxonomies/Ad Product Taxonomy 2.0.tsv',
  commit: 'b7acdcaa30d4c389d0fe022e93865ca59a4299e6',
  sha256: 'cf5fafb5204e0cd0eb6803635346084ae2982fefa90b55aa9df2d697dc6404b7',
};

export const AD_CATEGORIES_FILE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  'domain/ad-categories/ad-product-taxonomy-2.0.json',
);

interface Correction {
  id: string;
  source_parent_id: string | null;
  parent_id: string | null;
  why: string;
}

/** The TSV's rows as [id, parent id or null, name], in the source's order, and the parents corrected from its Tier columns. */
export function convertTaxonomy(tsv: string): { categories: Array<[string, string | null, string]>; corrections: Correction[] } {
  const lines = tsv.split(/\r?\n/).filter((line) => line.trim() !== '');
  const header = lines
    .shift()
    ?.split('\t')
    .map((h) => h.trim());
  if (header?.join('|') !== 'Unique ID|Parent ID|Name|Tier 1|Tier 2|Tier 3') throw new Error(`Unexpected header: ${header?.join(', ')}`);
  const rows = lines.map((line, i) => {
    const [id = '', parent = '', name = '', ...tiers] = line.split('\t').map((cell) => cell.trim());
    if (!/^\d+$/.test(id) || !name) throw new Error(`Row ${i + 2}: no id or name: ${line}`);
    return { id, parent: parent || null, name, tiers: tiers.filter(Boolean) };
  });
  const byId = new Map(rows.map((r) => [r.id, r]));
  if (byId.size !== rows.length) throw new Error('Duplicate ids in the source.');
  const byTierPath = new Map<string, string[]>();
  for (const r of rows) byTierPath.set(r.tiers.join('\t'), [...(byTierPath.get(r.tiers.join('\t')) ?? []), r.id]);

  const corrections: Correction[] = [];
  const categories = rows.map((r): [string, string | null, string] => {
    const expectedPath = r.tiers.slice(0, -1).join('\t');
    const given = r.parent && r.parent !== r.id ? byId.get(r.parent) : undefined;
    let parent: string | null;
    if (r.tiers.length <= 1) parent = null;
    else if (given && given.tiers.join('\t') === expectedPath) parent = given.id;
    else {
      const candidates = byTierPath.get(expectedPath) ?? [];
      if (candidates.length !== 1) throw new Error(`Row ${r.id}: no single parent for tiers ${r.tiers.join(' > ')}`);
      parent = candidates[0]!;
    }
    if (parent !== r.parent) {
      corrections.push({
        id: r.id,
        source_parent_id: r.parent,
        parent_id: parent,
        why:
          r.parent === r.id
            ? `Parent ID names the row itself; its Tier columns (${r.tiers.join(' > ')}) place it ${parent ? `under ${parent}` : 'at the top'}.`
            : `Parent ID ${r.parent} (${byId.get(r.parent ?? '')?.tiers.join(' > ')}) contradicts the Tier columns (${r.tiers.join(' > ')}).`,
      });
    }
    return [r.id, parent, r.name];
  });
  // A cycle would make `path` endless: refuse it here rather than at start-up.
  for (const [id] of categories) {
    const seen = new Set<string>();
    for (let at: string | null = id; at; at = categories.find((c) => c[0] === at)![1]) {
      if (seen.has(at)) throw new Error(`Cycle through ${id}`);
      seen.add(at);
    }
  }
  return { categories, corrections };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [file, flag, commit] = process.argv.slice(2);
  if (!file) throw new Error('Usage: node --import tsx scripts/ad-categories.ts <Ad Product Taxonomy 2.0.tsv> [--commit <sha>]');
  const bytes = readFileSync(file);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const source = { ...SOURCE, sha256 };
  if (sha256 !== SOURCE.sha256) {
    if (flag !== '--commit' || !commit)
      throw new Error(`This TSV (sha256 ${sha256}) is not the one of commit ${SOURCE.commit}: name its commit with --commit <sha>.`);
    source.commit = commit;
  }
  const { categories, corrections } = convertTaxonomy(bytes.toString('utf8'));
  const data = {
    taxonomy: 'IAB Tech Lab Ad Product Taxonomy',
    version: '2.0',
    license: { name: 'CC BY 3.0', url: 'https://creativecommons.org/licenses/by/3.0/' },
    attribution: 'IAB Tech Lab Ad Product Taxonomy 2.0 by IAB Technology Laboratory, Inc., licensed under CC BY 3.0; converted (see NOTICE.md).',
    source,
    corrections,
    // One [id, parent_id, name] per category, in the source's order.
    categories,
  };
  const json = JSON.stringify(data, null, 1).replace(/\[\n\s+("[^"]*"|null),\n\s+("[^"]*"|null),\n\s+("[^"]*")\n\s+\]/g, '[$1, $2, $3]');
  writeFileSync(AD_CATEGORIES_FILE, `${json}\n`);
  process.stdout.write(
    `Wrote ${categories.length} categories (${corrections.length} parents corrected) to ${path.relative(process.cwd(), AD_CATEGORIES_FILE)}\n`,
  );
}
