import { describe, expect, it } from 'vitest';
import { AD_CATEGORIES, AD_TAXONOMY, adCategory, isWithinCategory } from '@/domain/ad-categories/taxonomy';
import { AppError } from '@/server/errors';
import { adCategoryIds, listAdCategories } from './ad-categories';

describe('the shipped taxonomy (domain/ad-categories)', () => {
  it('is the IAB Tech Lab Ad Product Taxonomy 2.0 under CC BY 3.0: 583 categories, every parent listed, no cycle', () => {
    expect(AD_TAXONOMY).toMatchObject({ name: 'IAB Tech Lab Ad Product Taxonomy', version: '2.0', license: { name: 'CC BY 3.0' } });
    expect(AD_CATEGORIES).toHaveLength(583);
    expect(new Set(AD_CATEGORIES.map((c) => c.id)).size).toBe(583);
    for (const c of AD_CATEGORIES) {
      if (c.parentId) expect(adCategory(c.parentId), c.id).toBeDefined();
      expect(c.path.length).toBeLessThanOrEqual(3);
      expect(c.path.at(-1)).toBe(c.name);
      expect(c.name).toBe(c.name.trim());
    }
    expect(AD_CATEGORIES.filter((c) => c.parentId === null).map((c) => c.name)).toContain('Gambling');
  });

  it('takes a parent from the tier columns where the source’s Parent ID contradicts them', () => {
    expect(adCategory('1038')).toMatchObject({ parentId: '1036', path: ['Business and Industrial', 'Industrials', 'Construction and Engineering'] });
    expect(adCategory('1037')!.parentId).toBe('1036');
    expect(adCategory('1000')!.parentId).toBeNull();
    expect(adCategory('1426')!.path).toEqual(['Media', 'Core Gaming', 'Core Gaming Apps']);
  });

  it('knows what is within what, at any depth', () => {
    expect(isWithinCategory('1013', '1010')).toBe(true);
    expect(isWithinCategory('1010', '1010')).toBe(true);
    expect(isWithinCategory('1010', '1013')).toBe(false);
    expect(isWithinCategory('nope', '1010')).toBe(false);
  });
});

describe('listAdCategories', () => {
  it('pages in id order and filters by name, parent and depth', () => {
    const first = listAdCategories({ filter: {}, afterId: undefined, take: 3 });
    expect(first.map((c) => c.id)).toEqual(['1000', '1001', '1002']);
    expect(listAdCategories({ filter: {}, afterId: '1002', take: 2 }).map((c) => c.id)).toEqual(['1003', '1004']);
    expect(listAdCategories({ filter: { parentId: '1361' }, afterId: undefined, take: 50 }).map((c) => c.name)).toEqual([
      'Casinos',
      'Contests',
      'Give Aways',
      'Lottery',
      'Sports Betting',
      'Virtual Betting',
    ]);
    expect(listAdCategories({ filter: { q: 'BETTING' }, afterId: undefined, take: 50 }).map((c) => c.id)).toEqual(['1366', '1367']);
    expect(listAdCategories({ filter: { tier: 1 }, afterId: undefined, take: 200 }).every((c) => c.parentId === null)).toBe(true);
    expect(() => listAdCategories({ filter: { parentId: '9999' }, afterId: undefined, take: 5 })).toThrow(AppError);
  });
});

describe('adCategoryIds', () => {
  it('keeps each known id once, in order, and refuses unknown ones naming the field and the ids', () => {
    expect(adCategoryIds(['1004', '1361', '1004'], 'categories')).toEqual(['1004', '1361']);
    try {
      adCategoryIds(['1004', '9999'], 'categories');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).kind).toBe('bad-request');
      expect((error as AppError).detail).toMatch(/^categories: '9999' is not an ad category/);
      expect((error as AppError).extra.errors).toEqual([{ path: 'categories', message: "Unknown ad category: '9999'." }]);
    }
  });
});
