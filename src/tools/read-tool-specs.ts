import { readFile } from 'node:fs/promises';
import { InputError, type InputIssue } from '../errors.ts';
import { jsonPath, parseJsonText } from '../model/parse-input.ts';
import type { ToolSpec } from '../pack/tool-spec.ts';

/** Which format a tool spec file was read as. */
export type ToolSpecFormat = 'json-schema' | 'openai-tools' | 'openapi' | 'mcp';

/** The tools read from a file, how, and which read-only flags were guessed from names. */
export interface ReadToolSpecs {
  format: ToolSpecFormat;
  tools: ToolSpec[];
  /** Tools whose `readOnly` flag came from their name because neither the file nor the caller said. */
  guessed: string[];
}

const readVerbs = /^(get|list|search|find|lookup|read|fetch|describe|show|calculate|think)(_|[A-Z]|$)/;
const unsupported = ['not', 'if', 'then', 'else', 'dependentSchemas', 'patternProperties', 'unevaluatedProperties'];

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Problems of a JSON Schema that guards and type generation cannot use, with their JSON paths. */
function schemaIssues(schema: unknown, path: (string | number)[], root: string): InputIssue[] {
  const issues: InputIssue[] = [];
  const visit = (node: unknown, at: (string | number)[]) => {
    if (Array.isArray(node)) {
      node.forEach((item, index) => {
        visit(item, [...at, index]);
      });
    }
    if (!isObject(node)) return;
    for (const [key, value] of Object.entries(node)) {
      if (unsupported.includes(key))
        issues.push({ location: jsonPath([...at, key], root), message: `\`${key}\` is not supported` });
      else if (key === '$ref' && typeof value === 'string' && !value.startsWith('#/')) {
        issues.push({
          location: jsonPath([...at, key], root),
          message: `external reference \`${value}\` is not supported`,
        });
      } else visit(value, [...at, key]);
    }
  };
  visit(schema, path);
  return issues;
}

/** Resolves local `#/...` references of an OpenAPI document (not cyclic ones). */
function resolveRefs(node: unknown, document: Json, seen: ReadonlySet<string> = new Set()): unknown {
  if (Array.isArray(node)) return node.map((item) => resolveRefs(item, document, seen));
  if (!isObject(node)) return node;
  const ref = node.$ref;
  if (typeof ref === 'string' && ref.startsWith('#/') && !seen.has(ref)) {
    let target: unknown = document;
    for (const part of ref.slice(2).split('/'))
      target = isObject(target) ? target[part.replaceAll('~1', '/').replaceAll('~0', '~')] : undefined;
    if (target !== undefined) return resolveRefs(target, document, new Set([...seen, ref]));
  }
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, resolveRefs(value, document, seen)]));
}

/** The JSON schema of an operation's success response (200, 201, 2XX or default, `application/json`), if any. */
function responseSchema(responses: unknown): Json | undefined {
  if (!isObject(responses)) return undefined;
  for (const status of ['200', '201', '2XX', 'default']) {
    const response = responses[status];
    const content = isObject(response) && isObject(response.content) ? response.content['application/json'] : undefined;
    if (isObject(content) && isObject(content.schema)) return content.schema;
  }
  return undefined;
}

function fromOpenApi(document: Json, issues: InputIssue[]): { tools: ToolSpec[]; known: Set<string> } {
  const tools: ToolSpec[] = [];
  const known = new Set<string>();
  const paths = isObject(document.paths) ? document.paths : {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const method of ['get', 'head', 'post', 'put', 'patch', 'delete']) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      const at = ['paths', path, method];
      const name = typeof operation.operationId === 'string' ? operation.operationId : undefined;
      if (name === undefined) {
        issues.push({
          location: jsonPath([...at, 'operationId']),
          message: 'an operation needs an operationId to become a tool',
        });
        continue;
      }
      const properties: Json = {};
      const required: string[] = [];
      const parameters = [
        ...(Array.isArray(item.parameters) ? item.parameters : []),
        ...(Array.isArray(operation.parameters) ? operation.parameters : []),
      ];
      for (const parameter of parameters.map((value) => resolveRefs(value, document))) {
        if (!isObject(parameter) || typeof parameter.name !== 'string') continue;
        properties[parameter.name] = {
          ...(isObject(parameter.schema) ? parameter.schema : {}),
          ...(typeof parameter.description === 'string' ? { description: parameter.description } : {}),
        };
        if (parameter.required === true) required.push(parameter.name);
      }
      const body = resolveRefs(operation.requestBody, document);
      const bodySchema =
        isObject(body) && isObject(body.content) && isObject(body.content['application/json'])
          ? body.content['application/json'].schema
          : undefined;
      if (isObject(bodySchema) && isObject(bodySchema.properties)) {
        Object.assign(properties, bodySchema.properties);
        if (Array.isArray(bodySchema.required))
          required.push(...bodySchema.required.filter((key): key is string => typeof key === 'string'));
      }
      const parametersSchema = { type: 'object', properties, required };
      issues.push(...schemaIssues(parametersSchema, [...at, 'parameters'], '$'));
      const description = [operation.summary, operation.description]
        .filter((text) => typeof text === 'string')
        .join(' ');
      const returns = responseSchema(resolveRefs(operation.responses, document));
      tools.push({
        name,
        description,
        parameters: parametersSchema,
        readOnly: method === 'get' || method === 'head',
        ...(returns === undefined ? {} : { returns }),
      });
      known.add(name);
    }
  }
  return { tools, known };
}

/**
 * Reads the tools of a domain from a JSON file: a JSON Schema tool list (`[{name, description, parameters,
 * readOnly?}]`), OpenAI tools (`[{type: 'function', function: {...}}]`), an OpenAPI 3 document (one tool per
 * operation; GET and HEAD are read-only), or an MCP `tools/list` result (`readOnlyHint` annotations). The result
 * schema comes along where the file has one: `returns` in a tool list, an MCP tool's `outputSchema`, an OpenAPI
 * operation's JSON success response. Where the file
 * does not say whether a tool only reads, `readOnly` lists the read-only tools; failing that the name decides
 * (get_, list_, search_, …) and the tool is reported as guessed. Unsupported schema features throw an `InputError`
 * with their JSON paths.
 *
 * @example
 * ```ts
 * const { tools, guessed } = await readToolSpecs('tools.json', { readOnly: ['get_user_details'] });
 * ```
 */
export async function readToolSpecs(
  file: string,
  options: { readOnly?: readonly string[] } = {},
): Promise<ReadToolSpecs> {
  const value = parseJsonText(await readFile(file, 'utf8'), file);
  const issues: InputIssue[] = [];
  const stated = new Set<string>();
  let format: ToolSpecFormat;
  let tools: ToolSpec[] = [];
  const mcp = isObject(value) && isObject(value.result) ? value.result : value;
  if (isObject(value) && typeof value.openapi === 'string') {
    format = 'openapi';
    const read = fromOpenApi(value, issues);
    tools = read.tools;
    for (const name of read.known) stated.add(name);
  } else if (isObject(mcp) && Array.isArray(mcp.tools)) {
    format = 'mcp';
    mcp.tools.forEach((tool, index) => {
      const root = isObject(value) && isObject(value.result) ? '$.result.tools' : '$.tools';
      if (!isObject(tool) || typeof tool.name !== 'string') {
        issues.push({ location: `${root}[${index}].name`, message: 'expected a tool name' });
        return;
      }
      const annotations = isObject(tool.annotations) ? tool.annotations : {};
      const hint = annotations.readOnlyHint;
      if (typeof hint === 'boolean') stated.add(tool.name);
      issues.push(...schemaIssues(tool.inputSchema, [index, 'inputSchema'], root));
      tools.push({
        name: tool.name,
        description: typeof tool.description === 'string' ? tool.description : '',
        parameters: isObject(tool.inputSchema) ? tool.inputSchema : { type: 'object' },
        readOnly: hint === true,
        ...(isObject(tool.outputSchema) ? { returns: tool.outputSchema } : {}),
      });
    });
  } else if (Array.isArray(value)) {
    format = value.some((tool) => isObject(tool) && isObject(tool.function)) ? 'openai-tools' : 'json-schema';
    value.forEach((entry, index) => {
      const tool = isObject(entry) && isObject(entry.function) ? entry.function : entry;
      const at = format === 'openai-tools' ? [index, 'function'] : [index];
      if (!isObject(tool) || typeof tool.name !== 'string') {
        issues.push({ location: jsonPath([...at, 'name']), message: 'expected a tool name' });
        return;
      }
      const readOnly = (isObject(entry) ? entry.readOnly : undefined) ?? tool.readOnly;
      if (typeof readOnly === 'boolean') stated.add(tool.name);
      issues.push(...schemaIssues(tool.parameters, [...at, 'parameters'], '$'));
      tools.push({
        name: tool.name,
        description: typeof tool.description === 'string' ? tool.description : '',
        parameters: isObject(tool.parameters) ? tool.parameters : { type: 'object' },
        readOnly: readOnly === true,
        ...(isObject(tool.returns) ? { returns: tool.returns } : {}),
      });
    });
  } else {
    throw new InputError(file, [
      { location: '$', message: 'expected a tool list, an OpenAPI 3 document or an MCP tools/list result' },
    ]);
  }
  if (issues.length > 0) throw new InputError(file, issues);
  const listed = new Set(options.readOnly ?? []);
  const guessed: string[] = [];
  for (const tool of tools) {
    if (listed.size > 0) tool.readOnly = listed.has(tool.name);
    else if (!stated.has(tool.name)) {
      tool.readOnly = readVerbs.test(tool.name);
      guessed.push(tool.name);
    }
  }
  return { format, tools, guessed };
}
