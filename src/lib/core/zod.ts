/**
 * zod, the schemas' library. The schemas themselves are built on first use (`once`, `lazyObject`
 * in lazy.ts), so that an import of the library builds none; zod itself loads with the library (a
 * top-level await would let a module worker that imports the library miss its first messages).
 */
import { z } from "zod";

/** zod's `z`. */
export const zod = (): typeof z => z;
