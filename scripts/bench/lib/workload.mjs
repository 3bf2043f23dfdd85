// The side-by-side workload (issues #11 and #16), described once so that every line of the
// benchmark runs exactly the same work: the SDK against a server over HTTP today, the engine
// natively and in wasm later (a driver receives `plan`, which is plain data, and the same
// entity shape).
//
// Keys and property shapes follow benches/workload (the engine's criterion workload):
// partition `p0000`…, row `r000000`…, six properties, `Bucket = i % 100`, so the scan filter
// `Bucket eq 42` matches exactly 1% of the entities.

/**
 * The full workload: 100,000 entities in 100 partitions, batches of 100, 1,000 point gets.
 * Each query (partition query, table scan) is timed `queryPasses` times and its figure is the
 * median: a single pass of a few milliseconds is at the mercy of the machine's other load.
 */
export const FULL = Object.freeze({
  partitions: 100,
  perPartition: 1_000,
  batchSize: 100,
  pointGets: 1_000,
  queryPasses: 5,
  seed: 0x7ab1e5,
});

/** A development workload (--quick): 10,000 entities in 10 partitions; same shapes. */
export const QUICK = Object.freeze({ ...FULL, partitions: 10 });

export const TABLE = "Bench";
export const SCAN_FILTER = "Bucket eq 42";

export function partitionKey(p) {
  return `p${String(p).padStart(4, "0")}`;
}

export function rowKey(i) {
  return `r${String(i).padStart(6, "0")}`;
}

// 2023-06-01T00:00:00Z: `Joined` is this plus i seconds, inside the service's DateTime range.
const JOINED_BASE_MS = Date.UTC(2023, 5, 1);

/**
 * Entity i of partition p, in the SDK's shape: Name (String), Bucket (Int32, i % 100),
 * Balance (Int64), Score (Double, written with its type so that whole values stay Double),
 * Active (Boolean), Joined (DateTime).
 */
export function entity(p, i) {
  return {
    partitionKey: partitionKey(p),
    rowKey: rowKey(i),
    Name: `Customer ${p}-${i}`,
    Bucket: i % 100,
    Balance: BigInt(p * 1_000_003 + i) * 97n,
    Score: { value: i / 7, type: "Double" },
    Active: i % 3 === 0,
    Joined: new Date(JOINED_BASE_MS + i * 1_000),
  };
}

/** mulberry32: a small seeded PRNG, so every server gets the same "random" keys. */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Everything a driver needs, as plain data: sizes, the point-get keys (drawn from the seeded
 * PRNG), the partition the partition query reads, the scan filter and what each read must
 * return (a driver checks these, so a fast wrong answer cannot pass as a result).
 */
export function plan(sizes) {
  const next = prng(sizes.seed);
  const draw = (n) => Math.min(n - 1, Math.floor(next() * n));
  const pointGets = Array.from({ length: sizes.pointGets }, () => {
    const p = draw(sizes.partitions);
    const i = draw(sizes.perPartition);
    return { partitionKey: partitionKey(p), rowKey: rowKey(i), bucket: i % 100 };
  });
  const entities = sizes.partitions * sizes.perPartition;
  return {
    ...sizes,
    table: TABLE,
    entities,
    pointGets,
    partitionQuery: {
      partitionKey: partitionKey(Math.floor(sizes.partitions / 2)),
      expected: sizes.perPartition,
    },
    tableScan: { filter: SCAN_FILTER, expected: entities / 100 },
  };
}
