import { describe, expect, it } from 'vitest';
import { api, expectProblem, type Page } from '@/tests/support/api';
import { networkWithKeys, useTestDatabase } from '@/tests/support/fixtures';

useTestDatabase();

interface AdCategory {
  id: string;
  name: string;
  parent_id: string | null;
  path: string[];
}
type CategoryPage = Page<AdCategory> & {
  taxonomy: { name: string; version: string; license: { name: string; url: string }; attribution: string; source: string };
};

describe('GET /v1/ad-categories', () => {
  it('lists the IAB Tech Lab Ad Product Taxonomy 2.0 with its licence and source, to any key, paged by id to the end', async () => {
    const { reader } = await networkWithKeys();
    const seen: AdCategory[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: { status: number; body: CategoryPage } = await api<CategoryPage>(
        'GET',
        `/ad-categories?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        { token: reader },
      );
      expect(res.status).toBe(200);
      expect(res.body.taxonomy).toEqual({
        name: 'IAB Tech Lab Ad Product Taxonomy',
        version: '2.0',
        license: { name: 'CC BY 3.0', url: 'https://creativecommons.org/licenses/by/3.0/' },
        attribution: expect.stringContaining('CC BY 3.0'),
        source: expect.stringMatching(
          /^https:\/\/github\.com\/InteractiveAdvertisingBureau\/Taxonomies\/blob\/[0-9a-f]{40}\/Ad%20Product%20Taxonomies\//,
        ),
      });
      seen.push(...res.body.items);
      cursor = res.body.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(583);
    expect(seen.map((c) => Number(c.id))).toEqual([...seen.map((c) => Number(c.id))].sort((a, b) => a - b));
    expect(seen.find((c) => c.id === '1362')).toEqual({ id: '1362', name: 'Casinos', parent_id: '1361', path: ['Gambling', 'Casinos'] });
    // The super_user's key, which has no network, reads it too; no key does not.
    expect((await api('GET', '/ad-categories?limit=1')).status).toBe(200);
    expectProblem(await api('GET', '/ad-categories', { token: null }), 401, 'unauthorized');
  });

  it('filters by name (q), by parent (parent_id) and by depth (tier); the cursor belongs to its filters', async () => {
    const { reader } = await networkWithKeys();
    const list = (query: string) => api<CategoryPage>('GET', `/ad-categories?${query}`, { token: reader });
    expect((await list('q=betting')).body.items.map((c) => c.name)).toEqual(['Sports Betting', 'Virtual Betting']);
    const alcohol = await list('parent_id=1002');
    expect(alcohol.body.items.map((c) => c.path.join(' > '))).toEqual([
      'Alcohol > Bars',
      'Alcohol > Beer',
      'Alcohol > Hard Sodas, Seltzers, Alco Pops',
      'Alcohol > Spirits',
      'Alcohol > Wine',
    ]);
    const top = await list('tier=1&limit=200');
    expect(top.body.items.length).toBeGreaterThan(20);
    expect(top.body.items.every((c) => c.parent_id === null && c.path.length === 1)).toBe(true);
    expect((await list('tier=3&parent_id=1010')).body.items).toEqual([]);

    const first = await list('parent_id=1002&limit=2');
    expect(first.body.next_cursor).toBeTruthy();
    const second = await list(`parent_id=1002&limit=2&cursor=${encodeURIComponent(first.body.next_cursor!)}`);
    expect(second.body.items.map((c) => c.name)).toEqual(['Hard Sodas, Seltzers, Alco Pops', 'Spirits']);
    expectProblem(await list(`parent_id=1361&cursor=${encodeURIComponent(first.body.next_cursor!)}`), 400, 'bad-request');

    const unknownParent = expectProblem(await list('parent_id=9999'), 400, 'bad-request');
    expect(unknownParent.errors).toEqual([{ path: 'parent_id', message: 'Unknown ad category.' }]);
    expectProblem(await list('tier=0'), 400, 'bad-request');
    expectProblem(await list('colour=red'), 400, 'bad-request');
  });

  it('GET /v1/ad-categories/{categoryId}: one category with its path; an unknown id is a 404', async () => {
    const { reader } = await networkWithKeys();
    const res = await api<AdCategory>('GET', '/ad-categories/1013', { token: reader });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: '1013',
      name: 'Consulting',
      parent_id: '1012',
      path: ['Business and Industrial', 'Business Services', 'Consulting'],
    });
    expectProblem(await api('GET', '/ad-categories/9999', { token: reader }), 404, 'not-found');
  });
});
