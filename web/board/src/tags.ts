/** The tags the server accepts on a party, in plain words. */
export const TAGS: Array<{ id: string; label: string }> = [
  { id: 'high-chair', label: 'High chair' },
  { id: 'wheelchair', label: 'Wheelchair' },
  { id: 'vip', label: 'VIP' },
  { id: 'allergy', label: 'Allergy' },
];

export const tagLabel = (id: string): string => TAGS.find((t) => t.id === id)?.label ?? id;
