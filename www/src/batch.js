// A batch of texts for `validate_json_batch`, packed as the core takes it: one
// buffer of UTF-8 and each text's length in bytes. One buffer crosses to the
// worker (transferred, not copied) and into the wasm (one copy), where 10,000
// separate strings would each be cloned, then converted character by character.

const encoder = new TextEncoder();

/** `{bytes: Uint8Array, lengths: Uint32Array}` for `texts`, an array of strings. */
export function encodeBatch(texts) {
  let units = 0;
  for (const text of texts) units += text.length;
  // A UTF-16 unit becomes at most three bytes of UTF-8.
  const buffer = new Uint8Array(units * 3);
  const lengths = new Uint32Array(texts.length);
  let used = 0;
  texts.forEach((text, index) => {
    const { written } = encoder.encodeInto(text, buffer.subarray(used));
    lengths[index] = written;
    used += written;
  });
  return { bytes: buffer.slice(0, used), lengths };
}
