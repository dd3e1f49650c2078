// npm run build: always rebuilds every target into out/.
import { buildAll } from './build-lib.mjs';

await buildAll();
