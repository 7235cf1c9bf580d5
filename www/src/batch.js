// A batch of texts for `validate_json_batch`, packed as the core takes it: the
// texts joined into one string, and each text's length in UTF-16 units (its
// `length`). The worker hands the one string to the wasm, where the platform
// encodes it in a single call; per-text encoding (`TextEncoder.encodeInto`
// for each of 10,000 texts) took 9–15 ms of the page's main thread in
// Chromium, more than a worker then spends validating half of them. A big
// batch is cut into slices, one per worker (`validateBatch` in client.js).

/** `{joined: string, lengths: Uint32Array}` for `texts`, an array of strings. */
export function packBatch(texts) {
  const lengths = new Uint32Array(texts.length);
  texts.forEach((text, index) => {
    lengths[index] = text.length;
  });
  return { joined: texts.join(''), lengths };
}

/**
 * `texts` cut into at most `count` contiguous slices of about equal length, for
 * as many workers: `[{start, texts}]`, `start` being the slice's first index in
 * `texts`. No slice is empty, except the one slice of an empty batch.
 */
export function sliceBatch(texts, count) {
  let total = 0;
  for (const text of texts) total += text.length;
  const cuts = [];
  let start = 0;
  let size = 0;
  texts.forEach((text, index) => {
    size += text.length;
    if (cuts.length < count - 1 && size >= (total * (cuts.length + 1)) / count) {
      cuts.push({ start, texts: texts.slice(start, index + 1) });
      start = index + 1;
    }
  });
  if (start < texts.length || cuts.length === 0) cuts.push({ start, texts: texts.slice(start) });
  return cuts;
}
