import { fileURLToPath } from 'node:url';
import ts from '../typescript-api.ts';

const packRoot = '/__pack__/';
const libraryEntry = fileURLToPath(new URL('../index', import.meta.url));
const testingEntry = fileURLToPath(new URL('../testing/index', import.meta.url));

const options: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  lib: ['lib.es2023.d.ts'],
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  noImplicitOverride: true,
  verbatimModuleSyntax: true,
  allowImportingTsExtensions: true,
  noEmit: true,
  skipLibCheck: true,
  types: [],
  baseUrl: packRoot,
  paths: { agentguard: [libraryEntry], 'agentguard/testing': [testingEntry] },
};

/**
 * Type-checks guard code with the TypeScript compiler, against agentguard's own types. Pack files live in memory;
 * library and standard declarations are parsed once and reused, and each check reuses the previous program, so a
 * re-check after a repair costs tens of milliseconds.
 *
 * @example
 * ```ts
 * const problems = new GuardTypeChecker().check(files, 'guards/cancel_reservation/not_flown.ts');
 * ```
 */
export class GuardTypeChecker {
  private readonly host: ts.CompilerHost;
  private readonly diskFiles = new Map<string, ts.SourceFile>();
  private files: ReadonlyMap<string, string> = new Map();
  private readonly memoryFiles = new Map<string, { text: string; file: ts.SourceFile }>();
  private program: ts.Program | undefined;

  constructor() {
    const base = ts.createCompilerHost(options);
    const inPack = (fileName: string) => fileName.startsWith(packRoot);
    this.host = {
      ...base,
      fileExists: (fileName) =>
        inPack(fileName) ? this.files.has(fileName.slice(packRoot.length)) : base.fileExists(fileName),
      directoryExists: (name) =>
        inPack(`${name}/`)
          ? [...this.files.keys()].some((path) => (packRoot + path).startsWith(`${name}/`))
          : (base.directoryExists?.(name) ?? true),
      realpath: (name) => (inPack(name) ? name : (base.realpath?.(name) ?? name)),
      readFile: (fileName) =>
        inPack(fileName) ? this.files.get(fileName.slice(packRoot.length)) : base.readFile(fileName),
      getSourceFile: (fileName, languageVersion) => {
        if (inPack(fileName)) {
          const text = this.files.get(fileName.slice(packRoot.length));
          if (text === undefined) return undefined;
          const cached = this.memoryFiles.get(fileName);
          if (cached?.text === text) return cached.file;
          const file = ts.createSourceFile(fileName, text, languageVersion, true);
          this.memoryFiles.set(fileName, { text, file });
          return file;
        }
        let file = this.diskFiles.get(fileName);
        if (file === undefined) {
          file = base.getSourceFile(fileName, languageVersion);
          if (file !== undefined) this.diskFiles.set(fileName, file);
        }
        return file;
      },
      getCurrentDirectory: () => packRoot,
    };
  }

  /** The compiler's problems with the pack files among `files` (by pack-relative path) that `targets` import. */
  check(files: ReadonlyMap<string, string>, targets: readonly string[]): string[] {
    this.files = files;
    this.program = ts.createProgram({
      rootNames: targets.map((target) => packRoot + target),
      options,
      host: this.host,
      ...(this.program === undefined ? {} : { oldProgram: this.program }),
    });
    const problems: string[] = [];
    for (const file of this.program.getSourceFiles()) {
      if (!file.fileName.startsWith(packRoot)) continue;
      const diagnostics = [...this.program.getSyntacticDiagnostics(file), ...this.program.getSemanticDiagnostics(file)];
      for (const diagnostic of diagnostics) {
        const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
        const where =
          diagnostic.start === undefined ? '' : `:${file.getLineAndCharacterOfPosition(diagnostic.start).line + 1}`;
        problems.push(`${file.fileName.slice(packRoot.length)}${where}: ${message}`);
      }
    }
    return problems;
  }
}
