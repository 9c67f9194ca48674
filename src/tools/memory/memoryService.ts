// What the Memory tool needs from its session: the store of this workspace (docs/memory.md). The
// runtime registers it; recall and extraction in the engine use the same store.
import { serviceKey } from '../defineTool';
import type { MemoryStore } from '../../store/memoryStore';

export const MEMORY_SERVICE = serviceKey<MemoryStore>()('memory');
