// The memory cap on V8, which has no resource limiter for wasm: the core
// module's own memory declaration gets a maximum before it is compiled, so
// a `memory.grow` past the cap fails inside the component (Rust then
// reports the failed allocation on stderr and traps) and can never take
// the process's memory.

const PAGE = 64 * 1024;
const MEMORY_SECTION = 5;

/** What was found and set in a module's memory section. */
export interface MemoryCap {
  /** The patched module bytes (the input when it defines no memory). */
  bytes: Uint8Array;
  /** The largest initial size of a memory it defines, in bytes. */
  initialBytes: number;
}

function readU32(bytes: Uint8Array, at: number): [value: number, next: number] {
  let value = 0;
  let shift = 0;
  for (;;) {
    if (at >= bytes.length) throw new Error("truncated LEB128 in the wasm module");
    const byte = bytes[at++];
    value += (byte & 0x7f) * 2 ** shift;
    if ((byte & 0x80) === 0) return [value, at];
    shift += 7;
    if (shift > 35) throw new Error("LEB128 too long in the wasm module");
  }
}

function writeU32(value: number): number[] {
  const out: number[] = [];
  do {
    let byte = value % 128;
    value = Math.floor(value / 128);
    if (value > 0) byte |= 0x80;
    out.push(byte);
  } while (value > 0);
  return out;
}

/**
 * Caps every memory `module` defines at `limitBytes` (rounded down to whole
 * pages, and never below a memory's initial size, which the caller reports
 * as over the cap instead). 64-bit and shared memories are refused: the
 * component has neither.
 */
export function capMemory(module: Uint8Array, limitBytes: number): MemoryCap {
  const capPages = Math.floor(limitBytes / PAGE);
  let at = 8; // magic + version
  while (at < module.length) {
    const id = module[at];
    const [size, contentStart] = readU32(module, at + 1);
    const contentEnd = contentStart + size;
    if (id !== MEMORY_SECTION) {
      at = contentEnd;
      continue;
    }
    let [count, p] = readU32(module, contentStart);
    const content: number[] = writeU32(count);
    let initialPages = 0;
    while (count-- > 0) {
      const flags = module[p++];
      if (flags & ~0x01) throw new Error(`unsupported memory limits (flags ${flags}) in the component`);
      let min: number;
      [min, p] = readU32(module, p);
      let max = Infinity;
      if (flags & 0x01) [max, p] = readU32(module, p);
      initialPages = Math.max(initialPages, min);
      content.push(0x01, ...writeU32(min), ...writeU32(Math.max(min, Math.min(max, capPages))));
    }
    if (p !== contentEnd) throw new Error("malformed memory section in the component");
    const section = [MEMORY_SECTION, ...writeU32(content.length), ...content];
    const bytes = new Uint8Array(at + section.length + (module.length - contentEnd));
    bytes.set(module.subarray(0, at), 0);
    bytes.set(section, at);
    bytes.set(module.subarray(contentEnd), at + section.length);
    return { bytes, initialBytes: initialPages * PAGE };
  }
  return { bytes: module, initialBytes: 0 };
}

/** The core modules, with the memory cap written into the one that defines memory. */
export function prepareModules(
  files: Record<string, Uint8Array>,
  memoryLimitBytes: number,
): { modules: Record<string, Uint8Array>; initialMemoryBytes: number } {
  const modules: Record<string, Uint8Array> = {};
  let initialMemoryBytes = 0;
  for (const [name, bytes] of Object.entries(files)) {
    const capped = capMemory(bytes, memoryLimitBytes);
    modules[name] = capped.bytes;
    initialMemoryBytes = Math.max(initialMemoryBytes, capped.initialBytes);
  }
  return { modules, initialMemoryBytes };
}
