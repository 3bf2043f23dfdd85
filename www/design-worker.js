// The Design section's data generator off the page's main thread (src/ui/sections/design/offthread.rs):
// a second instance of the section's own module (design.js, design_bg.wasm), which draws the
// entities and writes them as partition chunks while the page hands the slice before to the
// playground. One message in, one out: {kind: 'start'} → {kind: 'started'}, {kind: 'step'}
// → {kind: 'slice'} (the chunks' buffers transferred, not copied), any failure → {kind:
// 'error', message}. The page terminates the worker when the run ends.
import init, { design_worker_start, design_worker_step } from './design.js';

const ready = init({ module_or_path: new URL('design_bg.wasm', import.meta.url) });

self.onmessage = async ({ data }) => {
  try {
    await ready;
    if (data.kind === 'start') {
      design_worker_start(data.design, data.tables);
      self.postMessage({ kind: 'started' });
    } else if (data.kind === 'step') {
      const slice = design_worker_step(data.max);
      self.postMessage(slice, slice.tables.flatMap(([, chunks]) => chunks.map((c) => c.buffer)));
    }
  } catch (error) {
    self.postMessage({ kind: 'error', message: String(error?.message ?? error) });
  }
};
