import ts from '../typescript-api.ts';

/** Globals guard code may use besides the toolbox and its own declarations. */
const allowedGlobals = new Set([
  'Math',
  'JSON',
  'Array',
  'Object',
  'String',
  'Number',
  'Boolean',
  'Set',
  'Map',
  'RegExp',
  'Error',
  'TypeError',
  'parseInt',
  'parseFloat',
  'isNaN',
  'isFinite',
  'Infinity',
  'NaN',
  'undefined',
]);

/**
 * Checks generated guard code before it runs: it must parse, define `entry` (`guard`), import and export nothing, and use no
 * identifier but its own declarations, the toolbox functions and plain language globals. Returns the problems.
 *
 * @example
 * ```ts
 * staticCheck("function guard(input, output) { return process.exit(1); }", ['CheckAccess']); // ['uses `process`, which is not allowed']
 * ```
 */
export function staticCheck(code: string, toolbox: readonly string[], entry = 'guard'): string[] {
  const file = ts.createSourceFile('guard.ts', code, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const problems: string[] = [];
  const parseErrors = (file as unknown as { parseDiagnostics?: ts.Diagnostic[] }).parseDiagnostics ?? [];
  for (const diagnostic of parseErrors)
    problems.push(`does not parse: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`);
  const declared = new Set<string>();
  const used = new Map<string, number>();
  const visit = (node: ts.Node) => {
    if (
      ts.isImportDeclaration(node) ||
      ts.isExportDeclaration(node) ||
      ts.isExportAssignment(node) ||
      ts.isImportEqualsDeclaration(node)
    ) {
      problems.push('imports or exports, which is not allowed');
    }
    if (node.kind === ts.SyntaxKind.ImportKeyword) problems.push('imports dynamically, which is not allowed');
    if (
      ts.canHaveModifiers(node) &&
      ts.getModifiers(node)?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)
    ) {
      problems.push('exports, which is not allowed');
    }
    if (
      (ts.isFunctionDeclaration(node) ||
        ts.isVariableDeclaration(node) ||
        ts.isParameter(node) ||
        ts.isClassDeclaration(node) ||
        ts.isBindingElement(node)) &&
      node.name !== undefined &&
      ts.isIdentifier(node.name)
    ) {
      declared.add(node.name.text);
    }
    if (ts.isIdentifier(node)) {
      const parent = node.parent;
      const isName =
        (ts.isPropertyAccessExpression(parent) && parent.name === node) ||
        (ts.isPropertyAssignment(parent) && parent.name === node) ||
        (ts.isPropertySignature(parent) && parent.name === node) ||
        (ts.isMethodDeclaration(parent) && parent.name === node) ||
        ts.isTypeReferenceNode(parent) ||
        (ts.isQualifiedName(parent) && parent.right === node);
      if (!isName) used.set(node.text, node.getStart(file));
    }
    if (node.kind === ts.SyntaxKind.ThisKeyword) problems.push('uses `this`, which is not allowed');
    ts.forEachChild(node, visit);
  };
  visit(file);
  for (const [name] of used) {
    if (!declared.has(name) && !toolbox.includes(name) && !allowedGlobals.has(name))
      problems.push(`uses \`${name}\`, which is not allowed`);
  }
  if (!declared.has(entry)) problems.push(`defines no \`${entry}\` function`);
  return [...new Set(problems)];
}
