/**
 * The tags the server accepts on a party, in plain words. `tablesOnly`: it means something only at a
 * restaurant table (a high chair is brought to the table), so a seat pool (a workshop) does not offer it,
 * and the server refuses to add it there (a group that carries it from before can have it taken off).
 */
export const TAGS: Array<{ id: string; label: string; tablesOnly?: true }> = [
  { id: 'high-chair', label: 'High chair', tablesOnly: true },
  { id: 'wheelchair', label: 'Wheelchair' },
  { id: 'vip', label: 'VIP' },
  { id: 'allergy', label: 'Allergy' },
];

/** The tags offered at a venue of this seating, and any a party already has (so it can be taken off). */
export const tagsFor = (seating: 'tables' | 'pool', has: string[]): typeof TAGS =>
  TAGS.filter((t) => seating === 'tables' || !t.tablesOnly || has.includes(t.id));

export const tagLabel = (id: string): string => TAGS.find((t) => t.id === id)?.label ?? id;
