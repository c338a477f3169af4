/**
 * Spherical k-means for the coarse quantiser of a large base: vectors and centroids are unit length, so the nearest
 * centroid by cosine is the one of largest dot product. Pure functions over Float32Arrays (row-major, `dims` wide),
 * run in a Worker for training and on the caller's thread to assign a few new vectors.
 */

/** A deterministic generator (mulberry32): the same sample gives the same centroids. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Scales each row to unit length in place (a zero row stays zero). */
export function normalizeRows(m: Float32Array, dims: number): Float32Array {
  for (let o = 0; o < m.length; o += dims) {
    let n = 0;
    for (let j = 0; j < dims; j++) n += m[o + j] * m[o + j];
    n = Math.sqrt(n);
    if (n > 0) for (let j = 0; j < dims; j++) m[o + j] /= n;
  }
  return m;
}

/** Dot products of the vector at `v[vo..]` with every centroid, into `out`. */
export function centroidScores(centroids: Float32Array, dims: number, v: Float32Array, vo: number, out: Float32Array) {
  for (let c = 0, co = 0; co < centroids.length; c++, co += dims) {
    let s = 0;
    for (let j = 0; j < dims; j++) s += v[vo + j] * centroids[co + j];
    out[c] = s;
  }
  return out;
}

/** The nearest centroid of the vector at `v[vo..]`. */
export function nearestCell(centroids: Float32Array, dims: number, v: Float32Array, vo = 0): number {
  const scores = centroidScores(centroids, dims, v, vo, new Float32Array(centroids.length / dims));
  let best = 0;
  for (let c = 1; c < scores.length; c++) if (scores[c] > scores[best]) best = c;
  return best;
}

/** The `n` nearest cells of a query vector, nearest first. */
export function nearestCells(centroids: Float32Array, dims: number, v: Float32Array, n: number): number[] {
  const scores = centroidScores(centroids, dims, v, 0, new Float32Array(centroids.length / dims));
  return Array.from(scores.keys())
    .sort((a, b) => scores[b] - scores[a])
    .slice(0, n);
}

/**
 * Trains `cells` centroids on `sample` (rows of unit vectors): seeded from distinct random rows, Lloyd iterations
 * until fewer than 0.5% of the rows change cell; a cell left empty is re-seeded with a random row.
 */
export function trainCentroids(sample: Float32Array, dims: number, cells: number, iterations = 10): Float32Array {
  const rows = sample.length / dims;
  const k = Math.min(cells, rows);
  const rnd = seededRandom(rows * 31 + k);
  const pick = () => Math.floor(rnd() * rows);
  const centroids = new Float32Array(k * dims);
  const chosen = new Set<number>();
  for (let c = 0; c < k; c++) {
    let r = pick();
    while (chosen.has(r) && chosen.size < rows) r = (r + 1) % rows;
    chosen.add(r);
    centroids.set(sample.subarray(r * dims, r * dims + dims), c * dims);
  }
  const cellOf = new Int32Array(rows).fill(-1);
  for (let it = 0; it < iterations; it++) {
    let moved = 0;
    for (let r = 0; r < rows; r++) {
      const c = nearestCell(centroids, dims, sample, r * dims);
      if (c !== cellOf[r]) moved++;
      cellOf[r] = c;
    }
    const sums = new Float32Array(k * dims);
    const counts = new Int32Array(k);
    for (let r = 0; r < rows; r++) {
      const c = cellOf[r];
      counts[c]++;
      for (let j = 0; j < dims; j++) sums[c * dims + j] += sample[r * dims + j];
    }
    for (let c = 0; c < k; c++) {
      if (counts[c]) centroids.set(sums.subarray(c * dims, c * dims + dims), c * dims);
      else {
        const r = pick();
        centroids.set(sample.subarray(r * dims, r * dims + dims), c * dims);
      }
    }
    normalizeRows(centroids, dims);
    if (moved < rows * 0.005) break;
  }
  return centroids;
}

/** Cells for a base of `chunks` vectors: about √n, so a probe reads ~nprobe/√n of the base. */
export const cellsFor = (chunks: number) => Math.max(8, Math.min(4096, Math.round(Math.sqrt(chunks))));
