/** A bounded map: past `max` entries the oldest goes (compiled FEEL is cheap to rebuild, memory is not free). */
export function boundedCache<V>(max: number) {
  const map = new Map<string, V>();
  return {
    get size() {
      return map.size;
    },
    getOrCreate(key: string, make: () => V): V {
      const hit = map.get(key);
      if (hit !== undefined) return hit;
      const v = make();
      if (map.size >= max) map.delete(map.keys().next().value as string);
      map.set(key, v);
      return v;
    },
  };
}
