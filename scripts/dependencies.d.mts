export function missingDependencies(root: string): string[];
export function ensureDependencies(
  root: string,
  options?: {
    run?: (command: string, args: string[], options: { cwd: string; stdio: 'inherit' }) => { status: number | null; signal?: NodeJS.Signals | null };
    log?: (line: string) => void;
    /** What is installed, as the line says it: "Toolbelt's packages" unless told. */
    label?: string;
  },
): boolean;
