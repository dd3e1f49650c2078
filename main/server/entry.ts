import { main } from './cli.js';

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`Toolbelt could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
